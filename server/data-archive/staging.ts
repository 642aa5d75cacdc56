import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Staging folders live in the data folder itself: same file system, so attachments are linked, not copied. */
export const STAGING_PREFIX = '.staging-';

/**
 * Deletes staging folders a crash left behind. Only while holding the data folder's lock: then no
 * snapshot or import of this folder can be under way.
 */
export function removeLeftoverStaging(dataDir: string): void {
  for (const name of readdirSync(dataDir))
    if (name.startsWith(STAGING_PREFIX)) rmSync(join(dataDir, name), { recursive: true, force: true });
}
