import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AppFiles, MediaProcessEntry } from './app-files.js';

/** Where this module runs from: server/app-files/ in a checkout, dist/server/app-files/ once built, or dist/ in the bundle. */
const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

let packageJson: { root: string; version: string } | undefined;

/** The nearest folder above this module holding Switchboard's package.json, and its version; read once. */
function readPackage(): { root: string; version: string } {
  if (packageJson) return packageJson;
  for (let folder = here('.'); ; folder = dirname(folder)) {
    try {
      const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'switchboard' && pkg.version) {
        packageJson = { root: folder, version: pkg.version };
        return packageJson;
      }
    } catch {
      // not here: look in the folder above
    }
    if (dirname(folder) === folder) throw new Error(`Switchboard's package.json was not found above ${here('.')}`);
  }
}

/** Whether this module runs from dist/ (the build, the bundle, the desktop app's archive) rather than the sources. */
const isBuilt = () => relative(readPackage().root, here('.')).split(sep)[0] === 'dist';

/** A folder of db/ as it lies beside the running code: dist/db/ for built code, db/ for the sources. */
const assetFolder = (name: string) => join(readPackage().root, isBuilt() ? 'dist' : '', 'db', name);

/** The build writes it beside the migrations it applied (build/new-database.mjs); the sources have none. */
function builtNewDatabase(): string | undefined {
  const file = join(readPackage().root, 'dist', 'db', 'new-database.db');
  return isBuilt() && existsSync(file) ? file : undefined;
}

/**
 * The media process's entry: dist/media-process.mjs, which the `cli` build step bundles beside the command, for built
 * code; the TypeScript source run with tsx (a development dependency, so there when the sources are) otherwise.
 */
function mediaProcess(): MediaProcessEntry {
  const root = readPackage().root;
  if (isBuilt()) return { module: join(root, 'dist', 'media-process.mjs'), execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { module: join(root, 'server', 'media', 'main.ts'), execArgv: ['--import', tsx] };
}

/** Files as they lie in a checkout (run with tsx), in its dist/ build, or in the desktop app's archive. */
export const appFiles: AppFiles = {
  version: () => readPackage().version,
  // Built code (dist/, the bundle, the desktop app's archive) reads the copy build/copy-assets.mjs made beside it;
  // the sources read db/migrations, never a dist/ that may be older than they are.
  migrationsFolder: () => assetFolder('migrations'),
  postgresMigrationsFolder: () => assetFolder('postgres-migrations'),
  newDatabase: builtNewDatabase,
  scalarScript: () => createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'),
  sqliteAddon: () => undefined,
  // Where `npm run build` puts it, whichever way the server runs.
  dashboardDir: () => join(readPackage().root, 'dist', 'renderer'),
  mediaProcess,
};
