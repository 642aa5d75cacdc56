import pg from 'pg';
import { inject } from 'vitest';

/** Which store this test run's servers keep their data in: the `postgres` project's files run on PostgreSQL. */
export function testStore(): 'sqlite' | 'postgres' {
  return inject('postgresUrl') ? 'postgres' : 'sqlite';
}

/**
 * Why a test about what only a server on SQLite has (the database file and the attachment files in its data folder,
 * SQLite's query planner) does not run on PostgreSQL.
 */
export const SQLITE_ONLY =
  'it is about what only a server on SQLite has (the database and attachment files of its data folder, its query planner); the PostgreSQL project skips it';

/**
 * Whether this run skips a test (or suite) about what only SQLite has: true on PostgreSQL, where it says so, naming
 * `what`. For `describe.skipIf(sqliteOnly('…'))` and `it.skipIf(…)`: never skipped silently.
 */
export function sqliteOnly(what: string): boolean {
  if (testStore() !== 'postgres') return false;
  console.warn(`Skipping ${what} on PostgreSQL: ${SQLITE_ONLY}.`);
  return true;
}

const databases = new Map<string, Promise<string>>();
let created = 0;

/** The secret key of every test server on PostgreSQL. */
export const TEST_SECRET_KEY = 'test-secret-key-of-the-switchboard-suite-0123456789';

/**
 * The store options of a test server on `dataDir`: none on SQLite (the data folder holds the data); on PostgreSQL, a
 * new empty database for each data folder (the same one again for a server restarted on it) and the secret key.
 */
export async function testStoreOptions(dataDir: string): Promise<{ databaseUrl?: string; secretKey?: string }> {
  const admin = inject('postgresUrl');
  if (!admin) return {};
  let url = databases.get(dataDir);
  if (!url) {
    url = createDatabase(admin);
    databases.set(dataDir, url);
  }
  return { databaseUrl: await url, secretKey: TEST_SECRET_KEY };
}

/** A new empty database in the PostgreSQL that `adminUrl` reaches; answers its URL. */
export async function createDatabase(adminUrl: string): Promise<string> {
  const name = `switchboard_${process.pid}_${++created}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
