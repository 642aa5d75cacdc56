// The compatibility rule of upgrades (docs/architecture.md, "Upgrades"): a server records the migrations it applied
// and its version in the database; a server older than the database's schema starts beside `expand` migrations, and
// refuses, in one line saying what to do, a `breaking` one or one whose compatibility nobody recorded. On both stores.
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresMigrations, sqliteMigrations } from '../../db/migration-compatibility.js';
import { knownMigrations } from '../../db/migration-journal.js';
import { readVersion } from '../../server/version.js';
import { makeDataDir, startTestServer, type TestServer } from '../support/server.js';
import { type TestDatabase, withTestDatabase } from '../support/test-database.js';

/** drizzle's own record of the migrations applied: one place in each dialect. */
const drizzleTable = (db: TestDatabase) =>
  db.dialect === 'postgres' ? 'drizzle.__drizzle_migrations' : '__drizzle_migrations';

/** What a newer server leaves in the database: a migration applied after all of this build's, and maybe its record. */
async function applyFutureMigration(
  db: TestDatabase,
  migration: { tag: string; compatibility?: 'expand' | 'breaking' },
): Promise<void> {
  const [latest] = await db.query<{ latest: number }>(`SELECT max(created_at) AS latest FROM ${drizzleTable(db)}`);
  const createdAt = Number(latest?.latest) + 60_000;
  await db.run(`INSERT INTO ${drizzleTable(db)} (hash, created_at) VALUES (?, ?)`, [migration.tag, createdAt]);
  if (migration.compatibility)
    await db.run(
      'INSERT INTO schema_migrations (tag, created_at, compatibility, first_server_version, recorded_at) VALUES (?, ?, ?, ?, ?)',
      [migration.tag, createdAt, migration.compatibility, '9.9.9', Date.now()],
    );
}

describe('the schema history and the compatibility of older servers', () => {
  const dataDir = makeDataDir();
  const lines: { level: number; msg: string; migrations?: string[] }[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  let server: TestServer | undefined;
  /** Where the server keeps its data, for the test's own connection while no server runs. */
  let data: { dataDir: string; databaseUrl?: string } = { dataDir };
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('declares every migration of both folders expand or breaking', () => {
    expect(Object.keys(sqliteMigrations)).toEqual(knownMigrations('db/migrations').map((entry) => entry.tag));
    expect(Object.keys(postgresMigrations)).toEqual(
      knownMigrations('db/postgres-migrations').map((entry) => entry.tag),
    );
  });

  it('records every migration with its compatibility, and the version of each server that ran', async () => {
    server = await startTestServer({ dataDir, logger });
    data = { dataDir, databaseUrl: server.databaseUrl };
    const recorded = await withTestDatabase(server, async (db) => ({
      migrations: await db.query<{ tag: string; compatibility: string; first_server_version: string }>(
        'SELECT tag, compatibility, first_server_version FROM schema_migrations ORDER BY created_at',
      ),
      servers: await db.query<{ version: string; schema: string }>('SELECT version, schema FROM server_versions'),
    }));
    const declared = data.databaseUrl ? postgresMigrations : sqliteMigrations;
    expect(recorded.migrations).toEqual(
      Object.entries(declared).map(([tag, compatibility]) => ({
        tag,
        compatibility,
        first_server_version: readVersion(),
      })),
    );
    expect(recorded.servers).toEqual([{ version: readVersion(), schema: Object.keys(declared).at(-1) }]);
  });

  it('starts beside a newer expand migration, and logs that the upgrade is not finished', async () => {
    await server?.close();
    await withTestDatabase(data, (db) =>
      applyFutureMigration(db, { tag: '9000_future_table', compatibility: 'expand' }),
    );
    server = await startTestServer({ dataDir, logger });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(lines.find((line) => line.msg.startsWith('the database has migrations newer'))).toMatchObject({
      level: 40,
      migrations: ['9000_future_table'],
      msg: expect.stringContaining('applied by Switchboard 9.9.9'),
    });
  });

  it('refuses a newer breaking migration, naming it and what to do', async () => {
    await server?.close();
    server = undefined;
    await withTestDatabase(data, (db) =>
      applyFutureMigration(db, { tag: '9001_drop_a_column', compatibility: 'breaking' }),
    );
    await expect(startTestServer({ dataDir, logger })).rejects.toThrow(
      `This database has migration 9001_drop_a_column, applied by Switchboard 9.9.9, which servers older than it cannot run beside: upgrade this server (Switchboard ${readVersion()}) to that version or later, or stop every server and restore the backup taken before the upgrade (docs/deployment.md#upgrading).`,
    );
  });

  it('refuses a newer migration whose compatibility is not recorded', async () => {
    await withTestDatabase(data, async (db) => {
      await db.run("DELETE FROM schema_migrations WHERE tag LIKE '900%'");
      await applyFutureMigration(db, { tag: '9002_unrecorded' });
    });
    await expect(startTestServer({ dataDir, logger })).rejects.toThrow(
      /^This database was migrated by a newer Switchboard than this server .*, and whether older servers can run beside it is not recorded: upgrade this server, or stop every server and restore the backup/,
    );
  });
});
