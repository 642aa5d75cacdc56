import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from './sqlite-driver.js';

export const LOCK_FILE = 'switchboard.lock';

export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `The data folder ${dataDir} is in use by another Switchboard server. Stop it, or choose another data folder.`,
    );
    this.name = 'DataDirInUseError';
  }
}

/**
 * Makes this server the only one using `dataDir`. Two servers on one folder would each keep their
 * own in-memory state (cached credentials, realtime connections, the webhook worker) and contradict
 * each other. The lock is SQLite's own exclusive file lock on a small side file: the operating
 * system drops it when the process ends, however it ends, so a crash never leaves a stale lock.
 * `nativeBinding` is better-sqlite3's addon, as for `openDatabase` (the single executable unpacks its own).
 */
export function lockDataDir(dataDir: string, nativeBinding: string | undefined): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const lock = new Database(join(dataDir, LOCK_FILE), { timeout: 0, nativeBinding });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirInUseError(dataDir);
    throw err;
  }
  return { release: () => lock.close() };
}
