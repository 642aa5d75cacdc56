import { appFiles } from './app-files/app-files.js';

/** The package version (from package.json, or recorded in the single executable when it was built). */
export function readVersion(): string {
  return appFiles.version();
}
