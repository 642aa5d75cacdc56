import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppFiles } from './app-files.js';

/** This file is server/app-files/ in a checkout and dist/server/app-files/ once built: two or three levels down. */
const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

let packageJson: { root: string; version: string } | undefined;

/** The folder holding Switchboard's package.json, and its version; read once. */
function readPackage(): { root: string; version: string } {
  if (packageJson) return packageJson;
  for (const candidate of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(here(candidate), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'switchboard' && pkg.version) {
        packageJson = { root: dirname(here(candidate)), version: pkg.version };
        return packageJson;
      }
    } catch {
      // try the next location
    }
  }
  throw new Error(`Switchboard's package.json was not found above ${here('.')}`);
}

/** Files as they lie in a checkout (run with tsx), in its dist/ build, or in the desktop app's archive. */
export const appFiles: AppFiles = {
  version: () => readPackage().version,
  // db/migrations beside the sources; dist/db/migrations in a build (copied by build/copy-assets.mjs).
  migrationsFolder: () => here('../../db/migrations'),
  scalarScript: () => createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'),
  sqliteAddon: () => undefined,
  dashboardDir: () => {
    const folder = join(readPackage().root, 'dist', 'renderer');
    return existsSync(join(folder, 'index.html')) ? folder : undefined;
  },
};
