import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, openSqliteFile } from '../../db/connection.js';
import { lockDataDir } from '../../db/data-dir-lock.js';
import { appDatabaseFiles } from '../app-files/database-files.js';
import type { Manifest } from './manifest.js';
import { takeSnapshot } from './snapshot.js';
import { manifestOf, writeArchiveFile } from './write.js';

/** The data folder holds no database: there is nothing to export. */
export class NothingToExportError extends Error {}

/**
 * Writes the archive of a data folder no server is using (it holds the folder's lock meanwhile, so a
 * running server makes it fail with DataDirInUseError: back that one up through the server instead).
 */
export async function exportDataDir(
  dataDir: string,
  file: string,
  meta: { switchboardVersion: string; createdAt: Date },
): Promise<Manifest> {
  const databaseFile = join(dataDir, DATABASE_FILE);
  if (!existsSync(databaseFile)) throw new NothingToExportError(`${dataDir} holds no Switchboard database to export.`);
  const { nativeBinding } = appDatabaseFiles();
  const lock = lockDataDir(dataDir, nativeBinding);
  try {
    const sqlite = openSqliteFile(databaseFile, { fileMustExist: true, nativeBinding });
    try {
      const snapshot = await takeSnapshot(sqlite, dataDir);
      try {
        const manifest = manifestOf(snapshot, meta);
        await writeArchiveFile(snapshot, manifest, file);
        return manifest;
      } finally {
        snapshot.dispose();
      }
    } finally {
      sqlite.close();
    }
  } finally {
    lock.release();
  }
}
