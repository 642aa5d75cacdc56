import { once } from 'node:events';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import pino, { type Logger } from 'pino';
import type { CopyReport } from '../db/copy-tables.js';
import { lockDataDir } from '../db/data-dir-lock.js';
import type { Store } from '../db/store.js';
import { createApp } from './app.js';
import { appFiles } from './app-files/app-files.js';
import { appDatabaseFiles } from './app-files/database-files.js';
import type { PasswordHashing } from './auth/passwords.js';
import { type Clock, systemClock } from './clock.js';
import { type Cluster, joinCluster } from './cluster/cluster.js';
import type { DeploymentMode, Infrastructure } from './context.js';
import type { Manifest } from './data-archive/manifest.js';
import { removeLeftoverStaging } from './data-archive/staging.js';
import { createEventBus, type EventBus } from './events/bus.js';
import type { AccessLogSetting } from './http/access-log.js';
import { answerClientErrors } from './http/client-errors.js';
import { limitHttpConnections } from './http/connection-limit.js';
import { routeUpgrades } from './http/upgrade-router.js';
import { createIdGenerator, type IdGenerator } from './ids.js';
import type { RtcMediaMode } from './media/media-signaling.js';
import type { MetricsListenerOptions } from './metrics/metrics-listener.js';
import type { PrometheusMetrics } from './metrics/prometheus.js';
import { openServerStore } from './open-store.js';
import type { IceServer } from './rtc/ice-servers.js';
import { checkRtcNetworkOptions } from './rtc/network-options.js';
import type { Runtime } from './runtime.js';
import { openFilesWarning, readOpenFileLimit } from './security/open-files.js';
import { type HttpLimits, resolveSecurity, type SecurityOptions } from './security/settings.js';
import type { SeedOutcome } from './seeds/apply.js';
import type { Seed } from './seeds/schema.js';
import type { OtelEnvironment } from './tracing/otel-environment.js';
import { tracedStore } from './tracing/traced-store.js';
import { startTracing, type Tracing } from './tracing/tracing.js';
import { readVersion } from './version.js';

// Node's own module, not its ES module facade: on Node.js 26 an `import` from 'node:http' reads every export of it,
// and one of them loads the bundled undici (fetch) at once, ≈9 ms of every start (serve → first /healthz).
const { createServer } = process.getBuiltinModule('node:http');

export interface ServerOptions {
  /** Folder holding the SQLite database and attachments; created if missing. */
  dataDir: string;
  /**
   * `postgres://user:password@host:port/database` (TLS: `?sslmode=verify-full&sslrootcert=/path/ca.pem`): keep the
   * data in this PostgreSQL database instead of SQLite in `dataDir`. Its migrations are applied at start (once,
   * however many servers start at the same moment).
   */
  databaseUrl?: string;
  /**
   * The secret the keys of a server on PostgreSQL derive from (the webhook-secrets key, the token signing keys):
   * required with `databaseUrl`, and the same for every start on one database. At least 32 characters.
   */
  secretKey?: string;
  /**
   * During a rotation of the secret key (docs/deployment.md, "Rotating the secret key"): the key `secretKey` replaces.
   * The server opens and verifies with either, seals and signs with the new one once every node holds it, seals the
   * database's webhook secrets again, then logs that it may go. Not used on SQLite, whose keys are in its data folder.
   */
  previousSecretKey?: string;
  /**
   * `redis://[:password@]host:port[/db]` (`rediss://` for TLS, `?tls-ca-cert-file=/path/ca.pem` to trust a CA of
   * one's own): the bus between several servers on one PostgreSQL database (realtime events, presence, shared limits,
   * the node list). Every server on the database needs the same one; a server without it refuses to start beside
   * another. Not used on SQLite, where a server always runs alone.
   */
  redisUrl?: string;
  /** 0 picks a free port. Default 4700. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Deployment mode (not a project environment). Default `local`. */
  mode?: DeploymentMode;
  /**
   * Allowed browser origins, registration policy, per-key rate limit, proxy trust, HTTP and WebSocket limits; what is
   * not given takes the deployment mode's default (see server/security/settings.ts).
   */
  security?: SecurityOptions;
  /**
   * The process's limit on open files, which the default connection limits fit under (and explicit ones are warned
   * about when they do not). Default: read from `/proc/self/limits`; null where unknown, and nothing is checked.
   */
  openFileLimit?: number | null;
  clock?: Clock;
  fetch?: typeof fetch;
  logger?: Logger;
  /**
   * Which requests the logger gets a line for (`request`, with its id, route template, status and duration): `all`
   * (the default), `errors` (status 400 and up), `off`, or errors and this fraction of the others.
   */
  accessLog?: AccessLogSetting;
  /**
   * The internal event bus; injected by tests that watch what the server emits, or emit themselves. The server
   * listens to it once its runtime is loaded: after its first API request, or `runDueWebhooks()`.
   */
  events?: EventBus;
  /**
   * Records connections, errors and metrics for the observability routes. Default true; `false`
   * exists only so that the benchmark can measure what recording costs. Never turn it off otherwise.
   */
  observability?: boolean;
  /**
   * What to create on an empty data folder (see server/seeds): applied before the server listens, in one
   * transaction; skipped when the folder holds accounts or projects. A seed with secrets (key text, webhook
   * secrets) makes a production-mode server refuse to start (SeedError).
   */
  seed?: Seed;
  /**
   * An archive (`switchboard export` or `backup`) to restore into the PostgreSQL database before the server listens:
   * how a team starts from a laptop's state. Refused when the database holds accounts or projects, unless `replace`.
   * (A server on SQLite restores archives into its data folder before it starts: `importArchive`.)
   */
  importArchive?: { file: string; replace: boolean };
  /**
   * How costly new password hashes are (server/auth/passwords.ts). Default `standard`; `fast` is for a test suite's
   * throw-away server (startTestServer), where two scrypt hashes at the standard cost (the seed's account, then its
   * sign-in) would take longer than all the rest of its start. A production-mode server refuses `fast`.
   */
  passwordHashing?: PasswordHashing;
  /**
   * The OTEL_* variables that turn on OpenTelemetry tracing and configure it (docs/deployment.md#tracing), as an
   * environment: `switchboard serve` passes its own. Default none: no tracing, and the SDK is not loaded. The server
   * reads no OTEL_* variable from the process by itself, and registers no global tracer provider: each server in a
   * process traces with its own.
   */
  otelEnvironment?: OtelEnvironment;
  /**
   * The dashboard's built files, served at `/`. Default: `dist/renderer` of this package, where `npm run build`
   * puts them; a packaged server passes its own folder. Without a build there, `/` says how to make one.
   */
  dashboardDir?: string;
  /**
   * Where `/v1/rtc`'s media goes. `media: 'mesh'` (the default): peer to peer, the server relays signaling only.
   * `media: 'sfu'` (experimental, issue 47): through the server, by a media process it forks (werift; see
   * docs/architecture.md, "Media: the SFU"); its `publish` and `subscribe_offer` messages are in docs/signaling.md.
   * `udpPort`: with `sfu`, the one UDP port (on every interface) of all its peer connections. Default 0: one the
   * system picks, again at each restart of the media process (tests); `serve` passes 40100 unless told otherwise. A
   * port in use fails the start. `processes`: with `sfu`, how many media processes at most (default 1), each started
   * when a room first needs it and holding whole rooms on a UDP port of its own: `udpPort`, `udpPort + 1`, …
   * `announceAddresses`: with `sfu`, the IPv4 addresses the server's descriptions announce as its host candidates
   * instead of its interfaces' (a server behind a 1:1 NAT or in a container; `serve --rtc-announce-address`). Default
   * none: its interfaces' addresses and 127.0.0.1.
   * `iceServers`: the STUN and TURN servers clients get in `joined.iceServers` (either mode), TURN with its
   * `username` and `credential`. Default none. The server's own peer connections use none. An invalid address or
   * URL fails the start.
   */
  rtc?: {
    media?: RtcMediaMode;
    udpPort?: number;
    processes?: number;
    announceAddresses?: string[];
    iceServers?: IceServer[];
  };
  /**
   * Serve Prometheus metrics (text exposition format) at `/metrics` on a listener of their own: `port` (0 picks a
   * free one) on `host`, default 127.0.0.1. Off by default; never on the API's port. See docs/deployment.md.
   */
  metrics?: { port: number; host?: string };
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:4700` */
  url: string;
  port: number;
  /**
   * Sends every webhook delivery due by the server's clock and resolves when none is in flight.
   * The server does this by itself (on each new event and every second); tests that move a manual
   * clock call it to make the retries that came due happen now.
   */
  runDueWebhooks(): Promise<void>;
  /**
   * Deletes every attachment not completed in time by the server's clock (the server does this by
   * itself every minute) and resolves to how many; tests that move a manual clock call it.
   */
  runAttachmentCleanup(): Promise<number>;
  /**
   * One look of the secret key rotation (server/secret-key-rotation/job.ts), which a server given a previous key
   * takes by itself every 2 s: tests call it to wait for none.
   */
  runSecretKeyRotation(): Promise<void>;
  /** What the `seed` option did; undefined without one. */
  seed?: SeedOutcome;
  /**
   * What `importArchive` restored: the archive's manifest, the rows copied per table and the values replaced so that
   * PostgreSQL could hold them (`replaced`, by `table.column`: see db/holdable-text.ts).
   */
  imported?: Manifest & CopyReport;
  /** With the `metrics` option: where Prometheus scrapes this server, e.g. `http://127.0.0.1:9470/metrics`. */
  metricsUrl?: string;
  close(): Promise<void>;
}

/**
 * Slow or idle clients cannot pin the server: headers and whole requests must arrive in time, idle keep-alive
 * connections close, and past `maxConnections` new HTTP connections are refused. Sockets upgraded to WebSockets leave
 * these timers and that count behind: their heartbeats watch them, and their own limits count them. Node looks for
 * overdue requests every `connectionsCheckingInterval` (30 s by default, which would let a slow client hold a
 * connection for 50 s instead of 20); once a second costs a walk over the open connections.
 */
function createHttpServer(app: RequestListener, limits: HttpLimits, ids: IdGenerator): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    app,
  );
  limitHttpConnections(server, limits.maxConnections);
  answerClientErrors(server, ids);
  return server;
}

export const DEFAULT_PORT = 4700;
export const DEFAULT_HOST = '127.0.0.1';

/**
 * How long after listening a server with no request yet loads its runtime anyway: its background jobs (webhook
 * retries left by the last run, attachment clean-up) start within the webhook worker's own poll interval.
 */
const RUNTIME_START_DELAY_MS = 1000;

/**
 * Loads the runtime once, when first asked; a failed load fails its callers (a request's goes to the error
 * middleware, which logs it) and is tried again by the next one.
 */
function runtimeLoader(create: () => Promise<Runtime>) {
  let loading: Promise<Runtime> | undefined;
  let stopped = false;
  return {
    load(): Promise<Runtime> {
      if (stopped) return Promise.reject(new Error('The server is shutting down.'));
      loading ??= create().catch((err: unknown) => {
        loading = undefined;
        throw err;
      });
      return loading;
    },
    /** Loads no more; resolves to the runtime if one was loaded or loading. */
    async stop(): Promise<Runtime | undefined> {
      stopped = true;
      return loading?.catch(() => undefined);
    },
  };
}

/**
 * Starts Switchboard: what `npm start`, `switchboard serve`, the tests and the desktop app all call.
 * It owns nothing global; `close()` stops listening, ends open connections and closes the database.
 * Only one server may use a data folder at a time: a second one fails to start (DataDirInUseError).
 *
 * The server listens as soon as its database is open and migrated. Its runtime (server/runtime.ts: the services,
 * the API routes, the WebSocket endpoints and the background jobs, most of its code) loads on the first request
 * that needs it, or RUNTIME_START_DELAY_MS after listening, whichever comes first; `/healthz`, the dashboard's files
 * and the API reference do not wait for it. Serve → first `/healthz` went from 213 to 154 ms, ×1.61 → ×1.19 of the
 * bare stack (medians of 15 runs on a quiet machine); the first API request pays the rest once (BENCH_ONLY=startup).
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? pino({ level: 'info' });
  const host = options.host ?? DEFAULT_HOST;
  const mode = options.mode ?? 'local';
  const passwordHashing = options.passwordHashing ?? 'standard';
  if (mode === 'production' && passwordHashing !== 'standard')
    throw new Error(
      'A production-mode server hashes passwords at the standard cost: `passwordHashing: fast` is for tests.',
    );
  if (options.rtc) checkRtcNetworkOptions(options.rtc);
  const files = appDatabaseFiles();
  const lock = lockDataDir(options.dataDir, files.nativeBinding);
  removeLeftoverStaging(options.dataDir);
  let store: Store | undefined;
  let tracing: Tracing | undefined;
  let cluster: Cluster | undefined;
  let runtime: ReturnType<typeof runtimeLoader> | undefined;
  let seeded: SeedOutcome | undefined;
  let imported: RunningServer['imported'];
  let server: Server;
  let prometheus: PrometheusMetrics | undefined;
  let scrapes: Awaited<ReturnType<typeof import('./metrics/metrics-listener.js').listenForScrapes>> | undefined;
  try {
    const version = readVersion();
    const opened = await openServerStore({ ...options, serverVersion: version }, files, clock, logger);
    store = opened.store;
    const { newer } = store.schema;
    if (newer.length > 0)
      logger.warn(
        { migrations: newer.map((migration) => migration.tag) },
        `the database has migrations newer than this server (applied by Switchboard ${newer[newer.length - 1]?.firstServerVersion}), which it runs beside: upgrade this server to finish the upgrade`,
      );
    const openFiles = options.openFileLimit !== undefined ? options.openFileLimit : readOpenFileLimit();
    const security = resolveSecurity(mode, options.security, openFiles);
    const tooMany = openFilesWarning(openFiles, {
      http: security.http.maxConnections,
      webSockets: security.webSockets.max,
    });
    if (tooMany) logger.warn(tooMany);
    const events = options.events ?? createEventBus();
    const ids = createIdGenerator(clock);
    const nodeId = ids.next('node');
    tracing = await startTracing(options.otelEnvironment, logger, {
      serviceVersion: version,
      serviceInstanceId: nodeId,
    });
    cluster = await joinCluster({
      store,
      events,
      redisUrl: options.redisUrl,
      nodeId,
      version,
      secretKeys: opened.keys.secretKeys,
      startedAt: clock.now(),
      logger,
      tracing,
    });
    // prom-client loads only for a server that serves metrics.
    if (options.metrics) {
      const { createPrometheusMetrics } = await import('./metrics/prometheus.js');
      prometheus = createPrometheusMetrics({ store, cluster, events });
    }
    const infra: Infrastructure = {
      ...opened,
      store: tracing.enabled ? tracedStore(store, tracing) : store,
      tracing,
      cluster,
      clock,
      ids,
      logger,
      mode,
      security,
      dataDir: options.dataDir,
      // Read on the first webhook, not here: on Node.js 20 the global fetch loads undici when first read (≈8 ms).
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      events,
      passwordHashing,
      version,
      metrics: prometheus?.sink,
    };
    if (options.importArchive) {
      if (store.dialect !== 'postgres')
        throw new Error('importArchive is for a server on PostgreSQL; on SQLite, restore into the data folder first.');
      const { importArchiveIntoStore } = await import('./data-archive/import-into-store.js');
      imported = await importArchiveIntoStore(options.importArchive.file, infra, {
        replace: options.importArchive.replace,
        switchboardVersion: infra.version,
      });
    }
    const { seed } = options;
    // The media processes bind them when a room first needs them: a port in use fails the start, clearly, instead.
    if (options.rtc?.media === 'sfu')
      await (await import('./media/media-ports.js')).checkMediaPortsFree(
        options.rtc.udpPort ?? 0,
        options.rtc.processes,
      );
    const runtimeTracing = tracing;
    // Loaded outside the trace of the request that asked for it: the timers and loops it starts are no request's.
    runtime = runtimeLoader(() =>
      runtimeTracing.outside(async () => {
        const created = await (await import('./runtime.js')).createRuntime(infra, options);
        // The seed's changes are not sent to webhooks: the jobs start after it.
        if (seed) {
          try {
            seeded = await (await import('./seeds/apply.js')).applySeed(created.ctx, seed);
          } catch (err) {
            await created.stop();
            await created.stopRecording();
            throw err;
          }
        }
        created.startJobs();
        return created;
      }),
    );
    // A seed is written before anyone can connect.
    if (seed) await runtime.load();
    const app = createApp(infra, runtime.load, {
      dashboardDir: options.dashboardDir ?? appFiles.dashboardDir(),
      accessLog: options.accessLog ?? 'all',
      requestMetrics: prometheus?.requests,
    });
    server = createHttpServer(app, infra.security.http, infra.ids).listen(options.port ?? DEFAULT_PORT, host);
    routeUpgrades(server, runtime.load);
    await once(server, 'listening');
    if (prometheus && options.metrics) {
      const { listenForScrapes } = await import('./metrics/metrics-listener.js');
      const at: MetricsListenerOptions = { port: options.metrics.port, host: options.metrics.host ?? DEFAULT_HOST };
      scrapes = await listenForScrapes(prometheus, at, logger);
    }
  } catch (err) {
    await new Promise<void>((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));
    prometheus?.close();
    await (await runtime?.stop())?.stop();
    await cluster?.close();
    await store?.close();
    await tracing?.shutdown().catch(() => {});
    lock.release();
    throw err;
  }

  const loader = runtime;
  const metricsListener = scrapes;
  const tracer = tracing;
  const early = setTimeout(() => {
    loader.load().catch((err: unknown) => logger.error({ err }, 'the server runtime could not start'));
  }, RUNTIME_START_DELAY_MS);
  early.unref();
  const sockets = new Set<Socket>();
  // One listener for every socket (it finds it as `this`), not a closure each, and `on` (a socket closes once; `once`
  // wraps each listener): WebSockets keep it for their life.
  function forget(this: Socket): void {
    sockets.delete(this);
  }
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', forget);
  });
  // An upgraded socket is its WebSocket endpoint's, which closes it when the runtime stops, before the server does:
  // kept here too, each idle WebSocket's socket held a second close listener (an array of them) and an entry.
  server.on('upgrade', (_req, socket: Socket) => {
    sockets.delete(socket);
    socket.off('close', forget);
  });
  const { port } = server.address() as AddressInfo;
  cluster.listeningOn({ host, port });
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    seed: seeded,
    imported,
    metricsUrl: scrapes?.url,
    runDueWebhooks: async () => (await loader.load()).runDueWebhooks(),
    runAttachmentCleanup: async () => (await loader.load()).runAttachmentCleanup(),
    runSecretKeyRotation: async () => (await loader.load()).runSecretKeyRotation(),
    close() {
      clearTimeout(early);
      closing ??= (async () => {
        // The runtime stops first: webhook attempts in flight are abandoned (and sent again after a restart)
        // before the database closes under them.
        const running = await loader.stop();
        await running?.stop();
        await metricsListener?.close();
        prometheus?.close();
        await new Promise<void>((resolve, reject) => {
          server.close((err) => {
            // Counted metrics are written while the database is still open.
            const recorded = running ? running.stopRecording() : Promise.resolve();
            recorded
              .then(() => cluster?.close())
              .then(() => store?.close())
              // Last: the spans of what closed are exported too.
              .then(() =>
                tracer.shutdown().catch((shutdownErr: unknown) => {
                  logger.warn({ err: shutdownErr }, 'tracing: the last spans could not be exported');
                }),
              )
              .then(
                () => {
                  lock.release();
                  if (err) reject(err);
                  else resolve();
                },
                (closeErr: unknown) => {
                  lock.release();
                  reject(err ?? closeErr);
                },
              );
          });
          server.closeIdleConnections();
          // Requests in flight get a moment to finish; then their sockets are cut.
          setTimeout(() => {
            for (const socket of sockets) socket.destroy();
          }, 2000).unref();
        });
      })();
      return closing;
    },
  };
}
