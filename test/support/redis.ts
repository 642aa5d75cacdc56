/**
 * A real Redis for the tests of several nodes, never a stand-in: Debian's `redis-server` (`.ci/run` installs it),
 * a child process on a free loopback port with a temporary folder as its working directory and nothing persisted
 * (a test's messages are thrown away).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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
  /** redis://127.0.0.1:port, the same after `resume`. */
  url: string;
  /** Kills the server (SIGKILL: a Redis lost, every connection cut, nothing kept) until `resume`. */
  pause(): Promise<void>;
  /** Starts the paused server again, empty, on the same port; resolves once it answers PING. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Whether a Redis answers PING on this port now: one connection, no retries (the caller polls). */
async function answersPing(port: number): Promise<boolean> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
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

export async function startRedis(): Promise<RedisServer> {
  const missing = redisMissing();
  if (missing) throw new Error(missing);
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-redis-'));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
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
    await waitUntilReady(server, `redis-server on port ${port}`, () => answersPing(port));
  };
  try {
    await start();
  } catch (err) {
    await server?.stop('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
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
