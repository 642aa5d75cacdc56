// Copies what the compiled server reads at run time next to it in dist/.
import { cpSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Copies the migrations of both stores into `root`/dist and returns the files copied (relative to root).
 * @param {string} root the repository
 * @returns {string[]}
 */
export function copyAssets(root) {
  return ['migrations', 'postgres-migrations'].flatMap((folder) => {
    const source = join(root, 'db', folder);
    cpSync(source, join(root, 'dist', 'db', folder), { recursive: true });
    return readdirSync(source, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)));
  });
}
