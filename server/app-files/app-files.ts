/**
 * Where Switchboard finds its own files at run time: the SQL migrations, Scalar's browser bundle, the SQLite addon,
 * the built dashboard and the package version. Code asks here rather than resolving paths from `import.meta.url` or
 * node_modules, because the single executable has neither: it carries these files inside itself.
 *
 * This module exports the implementation for a checkout or an installed package (package-files.ts); the single
 * executable's build (build/binary.ts) bundles sea-files.ts in its place, which unpacks the carried files into a
 * cache folder on first use.
 */
export interface AppFiles {
  /** The package version, e.g. `0.1.0`. */
  version(): string;
  /** The folder of drizzle migrations (SQL files and meta/_journal.json). */
  migrationsFolder(): string;
  /** The same for PostgreSQL (db/postgres-migrations). */
  postgresMigrationsFolder(): string;
  /**
   * The build's database with every SQLite migration applied, which a new data folder starts as a copy of; undefined
   * where there is none (the sources), and a new folder is migrated from nothing.
   */
  newDatabase(): string | undefined;
  /** Scalar's standalone browser script, served at /docs/scalar.js. */
  scalarScript(): string;
  /** better-sqlite3's compiled addon to load, or undefined to let better-sqlite3 find its own in node_modules. */
  sqliteAddon(): string | undefined;
  /** Where the built dashboard (index.html and assets/) is, or would be: the server says how to build it when it is not there. */
  dashboardDir(): string;
  /** What the server forks as its media process (server/media/main.ts, built or run from the sources). */
  mediaProcess(): MediaProcessEntry;
}

/** A module for `child_process.fork`, the Node.js options it needs, and variables added to its environment. */
export interface MediaProcessEntry {
  module: string;
  execArgv: string[];
  env?: Record<string, string>;
}

export { appFiles } from './package-files.js';
