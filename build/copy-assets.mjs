// Copies what the compiled server reads at run time next to it in dist/, and makes the database new data folders
// start from.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeNewDatabase } from './new-database.mjs';

/**
 * Copies the migrations of both stores into `root`/dist, writes dist/db/new-database.db from the SQLite ones, and
 * returns the files read (relative to root).
 * @param {string} root the repository
 * @returns {string[]}
 */
export function copyAssets(root) {
  const copied = ['migrations', 'postgres-migrations'].flatMap((folder) => {
    const source = join(root, 'db', folder);
    cpSync(source, join(root, 'dist', 'db', folder), { recursive: true });
    return readdirSync(source, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)));
  });
  const newDatabase = join(root, 'dist', 'db', 'new-database.db');
  try {
    writeNewDatabase(join(root, 'dist', 'db', 'migrations'), newDatabase);
  } catch (err) {
    // e.g. on Node.js 20 where better-sqlite3 12 could not be built (db/sqlite-driver.ts).
    rmSync(newDatabase, { force: true });
    process.stderr.write(
      `\n(dist/db/new-database.db not made: ${err.message.split('\n')[0]}. New data folders are migrated from nothing instead, a few milliseconds slower.)\n`,
    );
  }
  return [...copied, 'build/new-database.mjs'];
}
