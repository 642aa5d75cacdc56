import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { latestKnownMigration } from './migration-journal.js';
import Database from './sqlite-driver.js';
import { cacheStatements } from './statement-cache.js';

/**
 * drizzle on the one SQLite connection that writes. It is given no schema: that is only for drizzle's relational
 * queries (`db.query.…`), which Switchboard does not use, and building their description took ≈1.5 ms of each start.
 */
export type Db = BetterSQLite3Database & { $client: BetterSqlite3.Database };

export const DATABASE_FILE = 'switchboard.db';

/**
 * The files opening a database needs besides the database itself. db/ is the bottom floor and does not know where
 * the package's files are: its caller says (the server: server/app-files/database-files.ts).
 */
export interface DatabaseFiles {
  /** The drizzle migrations to apply on SQLite. */
  migrationsFolder: string;
  /** The drizzle migrations to apply on PostgreSQL. */
  postgresMigrationsFolder: string;
  /**
   * better-sqlite3's addon; undefined lets better-sqlite3 find its own in node_modules. Required, so that no caller
   * forgets the single executable's, which has no node_modules and unpacks its own.
   */
  nativeBinding: string | undefined;
  /**
   * A database with the migrations of `migrationsFolder` applied and nothing else (the build makes it:
   * build/new-database.mjs), which a new data folder starts as a copy of; undefined (the sources, run with tsx)
   * migrates a new folder from nothing. Required, for the same reason as `nativeBinding`.
   */
  newDatabase: string | undefined;
}

/**
 * Opens (creating if needed) the database in `dataDir` and brings its schema up to date.
 * One connection, used synchronously: SQLite serialises writers anyway, and better-sqlite3 keeps
 * transactions synchronous, which is what keeps them short.
 */
export function openDatabase(dataDir: string, files: DatabaseFiles): Db {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, DATABASE_FILE);
  if (files.newDatabase && !existsSync(file)) copyNewDatabase(files.newDatabase, file);
  const sqlite = new Database(file, { nativeBinding: files.nativeBinding });
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // WAL makes NORMAL durable against application crashes; only an OS crash can lose the last commit.
  sqlite.pragma('synchronous = NORMAL');
  const db = drizzle(sqlite);
  // drizzle's migrate reads and hashes every migration before it finds none to apply (≈2.5 ms); the journal says as much.
  if (latestAppliedMigration(sqlite) < latestKnownMigration(files.migrationsFolder).when)
    migrate(db, { migrationsFolder: files.migrationsFolder });
  cacheStatements(sqlite);
  return db;
}

/**
 * Starts a new data folder's database as a copy of `newDatabase`, rather than switching an empty file to WAL and
 * running 67 statements and their commit: serve's first `/healthz` on a new folder came 18–26 ms sooner in alternating
 * starts on the slow machine of 2026-11-27 (docs/benchmarks.md). The copy is made under another name and synced before
 * it takes the database's name, so that a crash leaves either no database (the next start makes it again) or this
 * one whole.
 */
function copyNewDatabase(newDatabase: string, file: string): void {
  const copy = `${file}.new`;
  // Written, not copied: a new file's permissions, not those of the original (read-only where it is installed).
  const fd = openSync(copy, 'w');
  try {
    writeFileSync(fd, readFileSync(newDatabase));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(copy, file);
}

/**
 * A plain SQLite connection to a database file (a copy, a snapshot, an archive being checked), with the addon the
 * app runs on (`nativeBinding`, required): inside the single executable, `new Database()` alone would look for it
 * in node_modules.
 */
export function openSqliteFile(
  file: string,
  options: BetterSqlite3.Options & Pick<DatabaseFiles, 'nativeBinding'>,
): BetterSqlite3.Database {
  return new Database(file, options);
}

/** The `created_at` of the newest migration applied to `sqlite`; 0 for a database never migrated. */
export function latestAppliedMigration(sqlite: BetterSqlite3.Database): number {
  const table = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'");
  if (!table.get()) return 0;
  const row = sqlite.prepare('SELECT max(created_at) AS latest FROM __drizzle_migrations').get() as {
    latest: number | null;
  };
  return Number(row.latest ?? 0);
}
