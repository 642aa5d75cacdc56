import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { type Clock, type RunningServer, type ServerOptions, startServer } from '../../server/index.js';
import { testStoreOptions } from './test-store.js';

export interface TestServer extends RunningServer {
  dataDir: string;
  /** The PostgreSQL database of the server in the `postgres` project; undefined on SQLite (the data folder's file). */
  databaseUrl?: string;
  /** Stops the server but keeps its data dir, so that a new server can start on the same data. */
  restart(): Promise<TestServer>;
  /** Stops the server and deletes its data dir. */
  dispose(): Promise<void>;
}

export function makeDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'switchboard-test-'));
}

/**
 * A real server on loopback (a free port unless given) with a fresh SQLite file in a temp folder, or, in the
 * `postgres` project, a fresh PostgreSQL database (the same one again when restarted on the same folder).
 */
export async function startTestServer(
  options: Partial<
    Pick<
      ServerOptions,
      | 'dataDir'
      | 'port'
      | 'mode'
      | 'clock'
      | 'fetch'
      | 'events'
      | 'security'
      | 'seed'
      | 'dashboardDir'
      | 'importArchive'
      | 'logger'
      | 'accessLog'
      | 'rtc'
      | 'metrics'
      | 'otelEnvironment'
    >
  > = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? makeDataDir();
  const store = await testStoreOptions(dataDir);
  const server = await startServer({
    ...options,
    dataDir,
    ...store,
    port: options.port ?? 0,
    host: '127.0.0.1',
    logger: options.logger ?? pino({ level: 'silent' }),
  });
  return {
    ...server,
    dataDir,
    databaseUrl: store.databaseUrl,
    async restart() {
      await server.close();
      return startTestServer({ ...options, dataDir });
    },
    async dispose() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.parse('2026-01-01T00:00:00.000Z')): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
  };
}
