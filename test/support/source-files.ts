import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every TypeScript file below `dir`, for tests that read the sources themselves. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}
