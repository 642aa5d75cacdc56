// Starting a server on PostgreSQL: the secret key is required, and a database refuses a key it was not written with.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/index.js';
import { type PostgresServer, postgresMissing, startPostgres } from '../support/postgres.js';

const missing = postgresMissing();
if (missing) console.warn(`Skipping the PostgreSQL start-up tests: ${missing}`);

const KEY_A = 'the-first-secret-key-of-this-test-0123456789';
const KEY_B = 'the-other-secret-key-of-this-test-0123456789';

describe.skipIf(missing !== undefined)('a server on PostgreSQL', () => {
  let postgres: PostgresServer;
  let dataDir: string;
  beforeAll(async () => {
    postgres = await startPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-pg-start-'));
  }, 60_000);
  afterAll(() => {
    postgres?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (databaseUrl: string, secretKey?: string) =>
    startServer({ dataDir, databaseUrl, secretKey, port: 0, logger: pino({ level: 'silent' }) });

  it('will not start without a secret key, and says how to make one', async () => {
    await expect(start(postgres.url(postgres.createDatabase()))).rejects.toThrow(
      'A server on PostgreSQL needs a secret key (SWITCHBOARD_SECRET_KEY): make one with `openssl rand -base64 48`',
    );
  });

  it('refuses a short secret key', async () => {
    await expect(start(postgres.url(postgres.createDatabase()), 'too-short')).rejects.toThrow(
      'The secret key has 9 characters; it needs at least 32',
    );
  });

  it('starts again with the same secret key, and refuses another', async () => {
    const url = postgres.url(postgres.createDatabase());
    const first = await start(url, KEY_A);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    await first.close();
    await expect(start(url, KEY_B)).rejects.toThrow('The secret key is not the one this database was written with');
    const again = await start(url, KEY_A);
    await again.close();
    // Nothing of the database went into the data folder: only the lock that keeps it to one server.
    expect(readdirSync(dataDir)).toEqual(['switchboard.lock']);
  });
});
