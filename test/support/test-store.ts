import pg from 'pg';
import { inject } from 'vitest';

/** Which store this test run's servers keep their data in: the `postgres` project's files run on PostgreSQL. */
export function testStore(): 'sqlite' | 'postgres' {
  return inject('postgresUrl') ? 'postgres' : 'sqlite';
}

/** Why a test that is about SQLite's file itself does not run on PostgreSQL. */
export const SQLITE_ONLY = 'it is about the SQLite file in the data folder; the PostgreSQL project skips it';

const databases = new Map<string, Promise<string>>();
let created = 0;

/**
 * The database URL a test server on `dataDir` uses: undefined on SQLite (the data folder holds the data); on
 * PostgreSQL, a new empty database for each data folder, the same one again for a server restarted on it.
 */
export function testDatabaseUrl(dataDir: string): Promise<string | undefined> {
  const admin = inject('postgresUrl');
  if (!admin) return Promise.resolve(undefined);
  let url = databases.get(dataDir);
  if (!url) {
    url = createDatabase(admin);
    databases.set(dataDir, url);
  }
  return url;
}

async function createDatabase(adminUrl: string): Promise<string> {
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
