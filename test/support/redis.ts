/**
 * A real Redis for the tests of several nodes, never a stand-in: Debian's `redis-server` (`.ci/run` installs it),
 * a child process on a free loopback port with a temporary folder as its working directory and nothing persisted
 * (a test's messages are thrown away).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type StartedChild, startChild, waitUntilReady } from './child-process.js';
import { freePort } from './wait.js';

export const REDIS_SERVER = '/usr/bin/redis-server';

/** Why the tests that need Redis cannot run here, or undefined when they can. */
export function redisMissing(): string | undefined {
  return existsSync(REDIS_SERVER)
    ? undefined
    : `Redis's server is not installed at ${REDIS_SERVER} (apt-get install redis-server; .ci/run does)`;
}

export interface RedisServer {
  /** redis://127.0.0.1:port (rediss:// with `tls`), the same after `resume`. */
  url: string;
  /** Kills the server (SIGKILL: a Redis lost, every connection cut, nothing kept) until `resume`. */
  pause(): Promise<void>;
  /** Starts the paused server again, empty, on the same port; resolves once it answers PING. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisStartOptions {
  /**
   * Serve TLS only (no plain port), with this certificate and key (PEM files) and the CA that signed them; clients
   * need no certificate. It then listens on 127.0.0.2 too, a loopback address that the test certificates do not name.
   */
  tls?: { cert: string; key: string; ca: string };
}

/** Whether a Redis answers PING on this port now: one connection, no retries (the caller polls). */
async function answersPing(port: number, ca?: string): Promise<boolean> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    ...(ca && { tls: { ca: readFileSync(ca) } }),
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 1_000,
  });
  // A refused connection is an answer here ("not yet"), not an error for ioredis to print.
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } finally {
    client.disconnect();
  }
}

export async function startRedis(startOptions: RedisStartOptions = {}): Promise<RedisServer> {
  const missing = redisMissing();
  if (missing) throw new Error(missing);
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-redis-'));
  const port = await freePort();
  const { tls } = startOptions;
  const args = [
    ...(tls
      ? ['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', '127.0.0.2']
      : ['--port', String(port), '--bind', '127.0.0.1']),
    ...(tls
      ? [
          '--tls-cert-file',
          tls.cert,
          '--tls-key-file',
          tls.key,
          '--tls-ca-cert-file',
          tls.ca,
          '--tls-auth-clients',
          'no',
        ]
      : []),
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'no',
    '--dir',
    folder,
    // The log on stdout, kept by startChild for the error that says why it did not start.
    '--logfile',
    '',
  ];
  let server: StartedChild | undefined;
  const start = async () => {
    server = startChild('redis-server', REDIS_SERVER, args, { cwd: folder });
    await waitUntilReady(server, `redis-server on port ${port}`, () => answersPing(port, tls?.ca));
  };
  try {
    await start();
  } catch (err) {
    await server?.stop('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `${tls ? 'rediss' : 'redis'}://127.0.0.1:${port}`,
    async pause() {
      await server?.stop('SIGKILL');
    },
    async resume() {
      if (server && !server.exit) throw new Error('redis-server is not paused');
      await start();
    },
    async stop() {
      try {
        await server?.stop('SIGKILL');
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
