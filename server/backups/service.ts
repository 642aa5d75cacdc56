import type { Infrastructure } from '../context.js';
import { manifestOf } from '../data-archive/write.js';
import { isAdminToken } from './admin-token.js';

/** Backups of the running server: a consistent snapshot taken while it keeps serving. */
export function createBackupService(
  { snapshot: takeSnapshot, clock, keys, version }: Infrastructure,
  /** Writes the metrics counted in memory, so that the backup has them up to now. */
  flushMetrics: () => Promise<void>,
) {
  // Made at start, so that the CLI finds it in the data folder before its first backup.
  const adminToken = keys.adminToken();
  return {
    isAdminToken: (given: string) => isAdminToken(adminToken, given),

    /** The snapshot and its manifest; the caller writes the archive and then disposes of the snapshot. */
    async snapshot() {
      await flushMetrics();
      const snapshot = await takeSnapshot();
      return {
        snapshot,
        manifest: manifestOf(snapshot, { switchboardVersion: version, createdAt: new Date(clock.now()) }),
      };
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
