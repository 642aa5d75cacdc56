/**
 * The servers under test, one per process: `tsx bench/servers.ts plain`,
 * `tsx bench/servers.ts switchboard <dataDir>`, or the chat baselines `raw-insert <dbFile>` and
 * `raw-broadcast <dbFile>`; on PostgreSQL (bench/postgres.ts), `switchboard-postgres <dataDir> <url>` and its floors
 * `raw-insert-postgres <url>` and `plain-postgres <url>`; a node of several (bench/cluster.ts),
 * `switchboard-cluster <dataDir> <url> <redisUrl>`. Started by `spawnServer` (bench/child.ts), never
 * by hand: it reports its URL over IPC, so the load generator can run in another process and not
 * compete with the server for the same event loop.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';
import pino from 'pino';
import { WebSocketServer } from 'ws';
import Database from '../db/sqlite-driver.js';
import { startServer } from '../server/index.js';
import { PLAIN_QUERY_PATH, RAW_MESSAGES_PATH, RAW_PING_PATH } from './config.js';

/**
 * `switchboard-unobserved`: the real server with observability recording off (bench/observability.ts);
 * `switchboard-metrics <dataDir> <metricsPort>`: with Prometheus metrics on that port (bench/metrics.ts).
 * `switchboard-traced`: with OpenTelemetry tracing on, exporting to the given OTLP endpoint (bench/tracing.ts).
 * `switchboard-sfu <dataDir>`: with media through the server (`rtc.media: 'sfu'`, its media process forked; bench/sfu.ts).
 */
export type ServerKind =
  | 'plain'
  | 'switchboard'
  | 'switchboard-unobserved'
  | 'switchboard-metrics'
  | 'switchboard-traced'
  | 'switchboard-sfu'
  | 'ws-echo'
  | 'raw-insert'
  | 'raw-broadcast'
  | 'switchboard-postgres'
  | 'switchboard-cluster'
  | 'raw-insert-postgres'
  | 'plain-postgres';

/** Sent once, when the server listens. */
export interface ReadyMessage {
  type: 'ready';
  url: string;
}
/** Asked for by the parent around each measured run: the server's own CPU cost per request. */
export interface CpuRequest {
  type: 'cpu';
}
export interface CpuReply {
  type: 'cpu';
  /** User plus system CPU time of the whole process (every thread), in microseconds. */
  micros: number;
}
/** Asked for by the socket memory scenarios: the heap in use and the resident memory after a full garbage collection. */
export interface HeapRequest {
  type: 'heap';
}
export interface HeapReply {
  type: 'heap';
  bytes: number;
  rss: number;
  /** What V8 holds for its heap (in use or not): resident memory minus this is the rest of the process's. */
  heapCommitted: number;
}

interface Running {
  url: string;
  close(): Promise<void>;
}

/** The baseline: Express 5 with a single JSON handler and none of Switchboard's middleware. */
async function startPlain(): Promise<Running> {
  const app = express();
  app.get('/plain', (_req, res) => {
    res.json({ ok: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The baseline for signaling: a bare `ws` server that sends every message straight back. */
async function startWsEcho(): Promise<Running> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  wss.on('connection', (socket) => socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })));
  const { port } = wss.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

/**
 * The chat baselines' floor: Express 5 + `express.json()` + better-sqlite3 (WAL and `synchronous = NORMAL`, as
 * Switchboard's database), one prepared INSERT of a row with a generated id, the text and a timestamp, answered
 * 201 with the row. With `broadcast`, the same HTTP server also accepts plain `ws` connections (any path), greets
 * each with `{"type":"connected"}`, and every POST sends the row, serialized once, to every connected client
 * before answering: the same measured path as Switchboard's (HTTP POST → every subscriber receives). A GET of
 * RAW_PING_PATH answers `{"ok":true}`.
 */
async function startRawChat(dbFile: string, broadcast: boolean): Promise<Running> {
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, text TEXT NOT NULL, created_at INTEGER NOT NULL)');
  const insert = db.prepare('INSERT INTO messages (id, text, created_at) VALUES (?, ?, ?)');

  const app = express();
  app.use(express.json());
  let wss: WebSocketServer | undefined;
  app.post(RAW_MESSAGES_PATH, (req, res) => {
    const text = (req.body as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string' || text === '') {
      res.status(400).json({ error: 'text is required' });
      return;
    }
    const message = { id: randomUUID(), text, createdAt: Date.now() };
    insert.run(message.id, message.text, message.createdAt);
    if (wss) {
      const frame = JSON.stringify({ type: 'message.created', data: { message } });
      for (const client of wss.clients) client.send(frame);
    }
    res.status(201).json(message);
  });
  app.get(RAW_PING_PATH, (_req, res) => {
    res.json({ ok: true });
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  if (broadcast) {
    wss = new WebSocketServer({ server });
    wss.on('connection', (socket) => socket.send(JSON.stringify({ type: 'connected' })));
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const client of wss?.clients ?? []) client.terminate();
        wss?.close();
        server.close(() => {
          db.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

/** The `public_id` that floor looks up, in its table of a few rows. */
const PLAIN_QUERY_ID = 'pk_bench_2';
/** The secret key of `switchboard-postgres`: any 32+ characters, the same for every start on one database. */
const BENCH_SECRET_KEY = 'switchboard-bench-secret-key-0123456789';

/** Closes an HTTP server, its kept-alive connections included, then `after` (the pool). */
function closing(server: Server, after: () => Promise<void>): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.close(() => void after().finally(resolve));
      server.closeAllConnections();
    });
}

/**
 * The PostgreSQL floors: Express 5 and a `pg` Pool of Switchboard's size (10, db/postgres-store.ts), on the same
 * driver and server as `switchboard-postgres`, so that the ratios measure Switchboard's own work. `insert`: the
 * PostgreSQL twin of `raw-insert`: express.json() and one INSERT of a message-like row per POST of
 * RAW_MESSAGES_PATH, answered 201 with the row. Otherwise one GET of PLAIN_QUERY_PATH doing one indexed lookup
 * (what a key's authentication needs at the least), answered as JSON.
 */
async function startRawPostgres(url: string, insert: boolean): Promise<Running> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const app = express();
  if (insert) {
    await pool.query(
      'CREATE TABLE IF NOT EXISTS messages (id text PRIMARY KEY, text text NOT NULL, created_at bigint NOT NULL)',
    );
    app.use(express.json());
    app.post(RAW_MESSAGES_PATH, async (req, res) => {
      const text = (req.body as { text?: unknown } | undefined)?.text;
      if (typeof text !== 'string' || text === '') {
        res.status(400).json({ error: 'text is required' });
        return;
      }
      const message = { id: randomUUID(), text, createdAt: Date.now() };
      await pool.query('INSERT INTO messages (id, text, created_at) VALUES ($1, $2, $3)', [
        message.id,
        message.text,
        message.createdAt,
      ]);
      res.status(201).json(message);
    });
  } else {
    await pool.query('CREATE TABLE IF NOT EXISTS api_keys (id text PRIMARY KEY, public_id text NOT NULL UNIQUE)');
    await pool.query(
      "INSERT INTO api_keys SELECT 'key_' || n, 'pk_bench_' || n FROM generate_series(1, 5) AS n ON CONFLICT DO NOTHING",
    );
    app.get(PLAIN_QUERY_PATH, async (_req, res) => {
      const { rows } = await pool.query<{ id: string }>('SELECT id FROM api_keys WHERE public_id = $1', [
        PLAIN_QUERY_ID,
      ]);
      res.json({ id: rows[0]?.id });
    });
  }
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: closing(server, () => pool.end()) };
}

/**
 * The real server, as the tests start it; the parent owns (creates and deletes) the data dir. `maxConnections` is
 * `--max-connections` (default: the server's).
 */
function startSwitchboard(
  dataDir: string,
  observability = true,
  maxConnections?: number,
  databaseUrl?: string,
  redisUrl?: string,
  metricsPort?: number,
  otlpEndpoint?: string,
  sfu = false,
): Promise<Running> {
  const security = maxConnections === undefined ? undefined : { http: { maxConnections } };
  return startServer({
    ...(metricsPort !== undefined && { metrics: { port: metricsPort } }),
    dataDir,
    ...(databaseUrl && { databaseUrl, secretKey: BENCH_SECRET_KEY }),
    ...(redisUrl && { redisUrl }),
    port: 0,
    host: '127.0.0.1',
    logger: pino({ level: 'silent' }),
    observability,
    security,
    ...(otlpEndpoint && { otelEnvironment: { OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint } }),
    ...(sfu && { rtc: { media: 'sfu' } }),
  });
}

async function main(): Promise<void> {
  const [kind, first, second, third] = process.argv.slice(2);
  if (!process.send) throw new Error('bench/servers.ts must be started by bench/run.ts (it reports over IPC).');
  let running: Running;
  if (kind === 'plain') running = await startPlain();
  // first: the data dir; second: --max-connections, or (on PostgreSQL) the database URL.
  else if (kind === 'switchboard' && first)
    running = await startSwitchboard(first, true, second ? Number(second) : undefined);
  else if (kind === 'switchboard-unobserved' && first) running = await startSwitchboard(first, false);
  else if (kind === 'switchboard-metrics' && first && second)
    running = await startSwitchboard(first, true, undefined, undefined, undefined, Number(second));
  // first: the data dir; second: the OTLP endpoint.
  else if (kind === 'switchboard-traced' && first && second)
    running = await startSwitchboard(first, true, undefined, undefined, undefined, undefined, second);
  else if (kind === 'switchboard-sfu' && first)
    running = await startSwitchboard(first, true, undefined, undefined, undefined, undefined, undefined, true);
  else if (kind === 'switchboard-postgres' && first && second)
    running = await startSwitchboard(first, true, undefined, second);
  // A node of several (bench/cluster.ts): first the data dir, second the database URL, third Redis's.
  else if (kind === 'switchboard-cluster' && first && second && third)
    running = await startSwitchboard(first, true, undefined, second, third);
  else if (kind === 'ws-echo') running = await startWsEcho();
  // first: the SQLite file.
  else if ((kind === 'raw-insert' || kind === 'raw-broadcast') && first)
    running = await startRawChat(first, kind === 'raw-broadcast');
  // first: the database URL.
  else if ((kind === 'raw-insert-postgres' || kind === 'plain-postgres') && first)
    running = await startRawPostgres(first, kind === 'raw-insert-postgres');
  else
    throw new Error(
      'Usage: servers.ts plain | ws-echo | switchboard <dataDir> [maxConnections] | raw-insert <dbFile> | raw-broadcast <dbFile> ' +
        '| switchboard-metrics <dataDir> <metricsPort> ' +
        '| switchboard-traced <dataDir> <otlpEndpoint> | switchboard-sfu <dataDir> ' +
        '| switchboard-postgres <dataDir> <url> | switchboard-cluster <dataDir> <url> <redisUrl> ' +
        '| raw-insert-postgres <url> | plain-postgres <url> ' +
        `(got ${process.argv.slice(2).join(' ')})`,
    );

  // Exit through process.exit (not death by signal) so that `--cpu-prof` gets to write its profile.
  const stop = () => {
    void running.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  // The parent is gone (crashed or killed): nobody will stop us otherwise.
  process.once('disconnect', stop);
  process.on('message', (message: CpuRequest | HeapRequest) => {
    if (message.type === 'heap') {
      // Twice: the first collection can leave what finalizers of the second release. Then a last-resort collection,
      // which gives back the pages V8 keeps after a full one: Node.js 26 stayed at 140 MB resident after two full
      // collections left a 21 MB heap (64 MB after this one), and one of its runs read resident memory per socket
      // below the heap per socket, the sockets filling pages the baseline held free. Node.js 20 gives them back
      // after a full collection already.
      globalThis.gc?.();
      globalThis.gc?.();
      globalThis.gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      const { heapUsed, heapTotal, rss } = process.memoryUsage();
      process.send?.({ type: 'heap', bytes: heapUsed, rss, heapCommitted: heapTotal } satisfies HeapReply);
      return;
    }
    if (message.type !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    process.send?.({ type: 'cpu', micros: user + system } satisfies CpuReply);
  });
  process.send({ type: 'ready', url: running.url } satisfies ReadyMessage);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
