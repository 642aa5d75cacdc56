import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3, in the version this Node.js can run. 13 is built on Node-API 10 and ships its binaries in the
 * package, so nothing is compiled at install. 12 and earlier derive from `node::ObjectWrap`, which Node.js 24.19 and
 * later abort in when a statement is garbage-collected outside a JavaScript context (nodejs/node#65446). Node.js 20
 * has only Node-API 9, and 13 crashes while it loads there: it runs 12, built at install from the optional
 * dependency `better-sqlite3-node20`; Node.js 20's headers have no such cleanup hook.
 *
 * Both export the same API, described by @types/better-sqlite3.
 */
export const SQLITE_DRIVER = Number(process.versions.napi) >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20';

// Required, not imported: the package for Node.js 20 is optional (`npm install --omit=optional` leaves it out). The
// single executable's bundle replaces this module with a static import of the one it carries (build/binary.ts).
const load = createRequire(import.meta.url);

function loadDriver(): typeof BetterSqlite3 {
  try {
    return load(SQLITE_DRIVER);
  } catch (err) {
    if (SQLITE_DRIVER !== 'better-sqlite3-node20' || (err as { code?: string }).code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error(
      `Node.js ${process.version} runs SQLite through better-sqlite3 12, the optional dependency better-sqlite3-node20, which is not installed: run \`npm install\` with optional dependencies (its build needs Python 3, make and a C++ compiler), or use Node.js 22 or later.`,
      { cause: err },
    );
  }
}

const Database: typeof BetterSqlite3 = loadDriver();

export default Database;
