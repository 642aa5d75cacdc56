// The database a new data folder starts as a copy of (db/connection.ts: openDatabase, `newDatabase`): every SQLite
// migration applied, nothing else. Copying it is sooner than migrating an empty file at each new folder's start (about
// 20 ms on the project's 2-core machine; docs/benchmarks.md).
import { renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';

// The better-sqlite3 this Node.js runs, chosen as db/sqlite-driver.ts chooses (that module is TypeScript, and this
// one runs in plain Node.js at the build).
const Database = createRequire(import.meta.url)(
  Number(process.versions.napi) >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20',
);

/**
 * Writes `file`: a database in WAL mode (as openDatabase makes it) with the migrations of `migrationsFolder` applied
 * by drizzle, as a server applies them, so that its migration rows are the ones a server would have written.
 * @param {string} migrationsFolder
 * @param {string} file
 * @param {{ nativeBinding?: string }} [options] better-sqlite3's addon, where it is not node_modules' own
 */
export function writeNewDatabase(migrationsFolder, file, { nativeBinding } = {}) {
  const making = `${file}.making`;
  const removeMaking = () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${making}${suffix}`, { force: true });
  };
  removeMaking();
  const sqlite = new Database(making, { nativeBinding });
  try {
    sqlite.pragma('journal_mode = WAL');
    migrate(drizzle(sqlite), { migrationsFolder });
  } catch (err) {
    sqlite.close();
    removeMaking();
    throw err;
  }
  // Closing the last connection writes the log into the file and removes it: the file alone is the database.
  sqlite.close();
  renameSync(making, file);
}
