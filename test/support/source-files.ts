import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folders of what was built or installed, not written: sdk/dist holds the package's declarations. */
const NOT_SOURCES = new Set(['dist', 'node_modules']);

/** Every TypeScript file below `dir`, for tests that read the sources themselves. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? NOT_SOURCES.has(entry.name)
        ? []
        : sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}
