// A new data folder starts as a copy of the build's database (build/new-database.mjs) instead of being migrated from
// nothing (db/connection.ts): it must get what migrating gives, and a folder that has a database must keep it.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNewDatabase } from '../../build/new-database.mjs';
import { DATABASE_FILE, type DatabaseFiles, openDatabase } from '../../db/connection.js';
import Database from '../../db/sqlite-driver.js';

const MIGRATIONS = 'db/migrations';
/** Set on the build's database of these tests, so that a folder shows whether it started from it. */
const MARK = 5;

const databaseFiles = (newDatabase: string | undefined): DatabaseFiles => ({
  migrationsFolder: MIGRATIONS,
  postgresMigrationsFolder: 'db/postgres-migrations',
  nativeBinding: undefined,
  newDatabase,
});

function mark(buildDatabase: string): void {
  const sqlite = new Database(buildDatabase);
  sqlite.pragma(`user_version = ${MARK}`);
  sqlite.close();
}

/** What a data folder's database holds that a copy could get wrong (its schema, migration rows, mode), and its mark. */
function describeDatabase(dataDir: string, newDatabase: string | undefined) {
  const sqlite = openDatabase(dataDir, databaseFiles(newDatabase)).$client;
  try {
    return {
      schema: sqlite
        .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
        .all(),
      migrations: sqlite.prepare('SELECT hash, created_at FROM __drizzle_migrations ORDER BY id').all(),
      journalMode: sqlite.pragma('journal_mode', { simple: true }),
      userVersion: sqlite.pragma('user_version', { simple: true }),
    };
  } finally {
    sqlite.close();
  }
}

describe('a new data folder started from the build’s database', () => {
  let work: string;
  let newDatabase: string;
  let migrated: ReturnType<typeof describeDatabase>;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'switchboard-new-database-'));
    newDatabase = join(work, 'new-database.db');
    writeNewDatabase(MIGRATIONS, newDatabase);
    mark(newDatabase);
    migrated = describeDatabase(join(work, 'migrated'), undefined);
  });

  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it('has the schema and the migration rows of one migrated from nothing', () => {
    const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    expect(migrated.migrations).toHaveLength(journal.entries.length);
    expect(migrated.schema.length).toBeGreaterThan(journal.entries.length);

    const dataDir = join(work, 'copied');
    expect(describeDatabase(dataDir, newDatabase)).toEqual({ ...migrated, userVersion: MARK });
    expect(migrated.journalMode).toBe('wal');
    // The copy took the database's name: nothing is left under the name it was written to.
    expect(existsSync(join(dataDir, `${DATABASE_FILE}.new`))).toBe(false);
  });

  it('catches up with migrations newer than the copy', () => {
    // A build's database one migration behind its migrations: the last one is applied at open, as to any database.
    const older = join(work, 'older-migrations');
    cpSync(MIGRATIONS, older, { recursive: true });
    const journalFile = join(older, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const last = journal.entries.pop();
    rmSync(join(older, `${last?.tag}.sql`));
    writeFileSync(journalFile, JSON.stringify(journal));
    const olderDatabase = join(work, 'older.db');
    writeNewDatabase(older, olderDatabase);

    mark(olderDatabase);

    expect(describeDatabase(join(work, 'caught-up'), olderDatabase)).toEqual({ ...migrated, userVersion: MARK });
  });

  it('leaves a folder’s existing database as it is', () => {
    const dataDir = join(work, 'existing');
    const sqlite = openDatabase(dataDir, databaseFiles(undefined)).$client;
    sqlite.pragma('user_version = 7');
    sqlite.close();

    expect(describeDatabase(dataDir, newDatabase).userVersion).toBe(7);
  });

  it('writes the copy again over one a crash left half-written', () => {
    const dataDir = join(work, 'after-a-crash');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, `${DATABASE_FILE}.new`), 'half a database');

    expect(describeDatabase(dataDir, newDatabase)).toEqual({ ...migrated, userVersion: MARK });
  });
});
