import { join } from 'node:path';
import { getAsset, getRawAsset } from 'node:sea';
import { defaultCacheDir } from '../../cli/user-folders.js';
import type { AppFiles } from './app-files.js';
import { CARRIED, MANIFEST_ASSET, type SeaManifest } from './sea-manifest.js';
import { seaMediaProcessEntry } from './sea-media-process.js';
import { unpackOnce } from './unpack.js';

let manifest: SeaManifest | undefined;
const readManifest = (): SeaManifest => {
  manifest ??= JSON.parse(getAsset(MANIFEST_ASSET, 'utf8')) as SeaManifest;
  return manifest;
};

let unpacked: string | undefined;
/**
 * The cache folder holding the carried files, unpacked on first use (so not for `--version` or a client command,
 * which need none of them). SWITCHBOARD_CACHE_DIR replaces the platform's cache folder, e.g. for a read-only home.
 */
function unpackedFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (unpacked) return unpacked;
  const { version, hash, files } = readManifest();
  const folder = join(env.SWITCHBOARD_CACHE_DIR || defaultCacheDir(env), `${version}-${hash}`);
  try {
    unpacked = unpackOnce(folder, { files, read: (file) => new Uint8Array(getRawAsset(file) as ArrayBuffer) });
  } catch (err) {
    throw new Error(
      `Could not unpack Switchboard's files into ${folder} (${(err as Error).message}). ` +
        'Set SWITCHBOARD_CACHE_DIR to a folder this user may write to.',
      { cause: err },
    );
  }
  return unpacked;
}

/** Files carried inside the single executable (see build/binary.ts), unpacked into a cache folder. */
export const appFiles: AppFiles = {
  version: () => readManifest().version,
  migrationsFolder: () => join(unpackedFolder(), CARRIED.migrations),
  postgresMigrationsFolder: () => join(unpackedFolder(), CARRIED.postgresMigrations),
  newDatabase: () => join(unpackedFolder(), CARRIED.newDatabase),
  scalarScript: () => join(unpackedFolder(), CARRIED.scalarScript),
  sqliteAddon: () => join(unpackedFolder(), CARRIED.sqliteAddon),
  // Unpacked with the rest; an executable built without the dashboard has none there, and says so at `/`.
  dashboardDir: () => join(unpackedFolder(), CARRIED.dashboard),
  // The executable itself, which carries the media process's code (sea-main.ts).
  mediaProcess: seaMediaProcessEntry,
};
