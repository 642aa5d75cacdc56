import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirInUseError, lockDataDir } from '../../db/data-dir-lock.js';
import { appDatabaseFiles } from '../app-files/database-files.js';
import { newKeyFileBytes, PREVIOUS_SECRET_KEY_FILE, SECRET_KEY_FILE } from '../webhooks/secret-box.js';

/** Why a data folder's key was not rotated: said to the operator as it is. */
export class RotationRefusedError extends Error {}

/**
 * Gives the data folder of a stopped server on SQLite a new webhook-secrets key, keeping the old one beside it as the
 * previous key: the server's next start seals every secret again with the new key while it serves, then deletes the
 * previous one (server/secret-key-rotation/job.ts). Under the data folder's lock, so never under a running server.
 */
export function rotateDataDirKey(dataDir: string): void {
  const current = join(dataDir, SECRET_KEY_FILE);
  const previous = join(dataDir, PREVIOUS_SECRET_KEY_FILE);
  if (!existsSync(current))
    throw new RotationRefusedError(`${dataDir} has no ${SECRET_KEY_FILE}: there is no key to rotate`);
  let lock: { release(): void };
  try {
    lock = lockDataDir(dataDir, appDatabaseFiles().nativeBinding);
  } catch (err) {
    if (err instanceof DataDirInUseError)
      throw new RotationRefusedError(`a running server is using ${dataDir}: stop it first, then rotate`);
    throw err;
  }
  try {
    if (existsSync(previous))
      throw new RotationRefusedError(
        `a rotation of ${dataDir} is under way: start the server and let it finish (it deletes ` +
          `${PREVIOUS_SECRET_KEY_FILE} when nothing needs it any more)`,
      );
    renameSync(current, previous);
    writeFileSync(current, newKeyFileBytes(), { mode: 0o600, flag: 'wx' });
  } finally {
    lock.release();
  }
}
