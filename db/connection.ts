import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { appFiles } from '../server/app-files/app-files.js';
import * as schema from './schema/index.js';
import { cacheStatements } from './statement-cache.js';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export const DATABASE_FILE = 'switchboard.db';

/** The files opening a database needs besides the database itself. */
export interface DatabaseFiles {
  /** The drizzle migrations to apply. */
  migrationsFolder: string;
  /** better-sqlite3's addon, when it is not in node_modules (the single executable unpacks its own). */
  nativeBinding?: string;
}

/** Switchboard's own: from the checkout or package, or unpacked by the single executable. */
export const appDatabaseFiles = (): DatabaseFiles => ({
  migrationsFolder: appFiles.migrationsFolder(),
  nativeBinding: appFiles.sqliteAddon(),
});

/**
 * Opens (creating if needed) the database in `dataDir` and brings its schema up to date.
 * One connection, used synchronously: SQLite serialises writers anyway, and better-sqlite3 keeps
 * transactions synchronous, which is what keeps them short.
 */
export function openDatabase(dataDir: string, files: DatabaseFiles = appDatabaseFiles()): Db {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(join(dataDir, DATABASE_FILE), { nativeBinding: files.nativeBinding });
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // WAL makes NORMAL durable against application crashes; only an OS crash can lose the last commit.
  sqlite.pragma('synchronous = NORMAL');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: files.migrationsFolder });
  cacheStatements(sqlite);
  return db;
}
