// The PostgreSQL store itself, on Debian's PostgreSQL: migrations applied once however many servers start at once,
// transactions atomic, and two that conflict both succeed (the store runs the loser again), as on SQLite.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../../db/postgres-store.js';
import { serverSecrets } from '../../db/schema/server-secrets.js';
import { classifyStoreError, failedQuery } from '../../db/store-errors.js';
import { type PostgresServer, postgresMissing, startPostgres } from '../support/postgres.js';

const migrationsFolder = 'db/postgres-migrations';
const missing = postgresMissing();
if (missing) console.warn(`Skipping the PostgreSQL store's tests: ${missing}`);

describe.skipIf(missing !== undefined)('the PostgreSQL store', () => {
  let server: PostgresServer;
  let store: PostgresStore;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    server?.stop();
  });

  it('migrates a new database once when several servers start at the same moment', async () => {
    const database = server.createDatabase();
    const url = server.url(database);
    const stores = await Promise.all(
      [1, 2, 3].map(() => openPostgresStore({ url, migrationsFolder, serverVersion: '0.0.0-test' })),
    );
    [store] = stores;
    await Promise.all(stores.slice(1).map((other) => other.close()));
    const applied = server.psql({ sql: 'SELECT count(*) FROM drizzle.__drizzle_migrations' }, database).trim();
    const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    expect(Number(applied)).toBe(journal.entries.length);
  });

  it('says which database is missing when the URL names one that does not exist', async () => {
    const url = server.url('no_such_database');
    await expect(openPostgresStore({ url, migrationsFolder, serverVersion: '0.0.0-test' })).rejects.toThrow(
      /^Cannot use the PostgreSQL database at 127\.0\.0\.1:\d+\/no_such_database as postgres: no such database/,
    );
  });

  it('keeps nothing of a transaction that failed', async () => {
    await expect(
      store.transaction(async (tx) => {
        await tx.insert(serverSecrets).values({ name: 'doomed', value: 'x', createdAt: 1 });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await store.db.select().from(serverSecrets).where(eq(serverSecrets.name, 'doomed'))).toEqual([]);
  });

  it('refuses a NUL in text as the client’s input (a 400), and tells its query without its values', async () => {
    const secret = 'never-in-a-log';
    const refused = await store
      .transaction(async (tx) => {
        await tx.insert(serverSecrets).values({ name: 'nul\u0000', value: secret, createdAt: 1 });
      })
      .catch((err: unknown) => err);
    expect(classifyStoreError(refused)).toBe('unstorable-text');
    const query = failedQuery(refused);
    expect(query).toMatchObject({
      query: expect.stringMatching(/^insert into "server_secrets"/),
      code: '22021',
      message: expect.stringMatching(/invalid byte sequence/),
    });
    expect(JSON.stringify(query)).not.toContain(secret);
  });

  it('runs conflicting transactions one after another in effect: no update is lost', async () => {
    await store.transaction(async (tx) => {
      await tx.insert(serverSecrets).values({ name: 'counter', value: '0', createdAt: 1 });
    });
    const increment = () =>
      store.transaction(async (tx) => {
        const [row] = await tx.select().from(serverSecrets).where(eq(serverSecrets.name, 'counter')).limit(1);
        await tx
          .update(serverSecrets)
          .set({ value: String(Number(row.value) + 1) })
          .where(eq(serverSecrets.name, 'counter'));
      });
    await Promise.all(Array.from({ length: 10 }, increment));
    const [row] = await store.db.select().from(serverSecrets).where(eq(serverSecrets.name, 'counter'));
    expect(row.value).toBe('10');
  });

  it('joins the open transaction when one is started inside another, and reads its writes through db', async () => {
    const seen = await store.transaction(async () => {
      await store.transaction(async (tx) => {
        await tx.insert(serverSecrets).values({ name: 'inner', value: 'v', createdAt: 2 });
      });
      return store.db.select().from(serverSecrets).where(eq(serverSecrets.name, 'inner'));
    });
    expect(seen.map((row) => row.value)).toEqual(['v']);
  });
});

describe('a PostgreSQL URL that cannot be used', () => {
  it('fails at start with one line naming host, port and database, never the password', async () => {
    const url = 'postgres://team:hunter2-secret@127.0.0.1:1/switchboard';
    const failure = await openPostgresStore({ url, migrationsFolder, serverVersion: '0.0.0-test' }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).toBe(
      'Cannot use the PostgreSQL database at 127.0.0.1:1/switchboard as team: connection refused (is PostgreSQL ' +
        'running and listening there?).',
    );
    expect(failure?.message).not.toContain('hunter2');
  });
});
