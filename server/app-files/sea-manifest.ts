/**
 * The single executable's `manifest.json` asset, written by build/binary.ts: every other asset is one of `files`,
 * its key being the file's path in the folder they unpack into.
 */
export interface SeaManifest {
  version: string;
  /** A hash of every carried file's path and bytes: names the cache folder, so that two builds never share one. */
  hash: string;
  files: string[];
}

export const MANIFEST_ASSET = 'manifest.json';

/** Where each kind of carried file lies in the unpacked folder. */
export const CARRIED = {
  migrations: 'migrations',
  postgresMigrations: 'postgres-migrations',
  newDatabase: 'new-database.db',
  scalarScript: 'scalar/standalone.js',
  sqliteAddon: 'better_sqlite3.node',
  dashboard: 'renderer',
} as const;
