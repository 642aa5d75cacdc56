import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, linkSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openSqliteFile } from '../../db/connection.js';
import {
  backupTo,
  deleteAttachments,
  type SqliteFile,
  storedAttachments,
  withoutWriteAheadLog,
} from '../../db/sqlite-files.js';
import { appDatabaseFiles } from '../app-files/database-files.js';
import { PREVIOUS_SECRET_KEY_FILE, SECRET_KEY_FILE } from '../webhooks/secret-box.js';
import { DATABASE_ENTRY, type ManifestEntry, PREVIOUS_WEBHOOK_KEY_ENTRY, WEBHOOK_KEY_ENTRY } from './manifest.js';
import { STAGING_PREFIX } from './staging.js';

/** A file of the snapshot and where it goes in the archive. */
export interface SnapshotEntry extends ManifestEntry {
  file: string;
}

/** A consistent copy of a data folder in a staging folder, ready to archive; `dispose()` deletes it. */
export interface Snapshot {
  entries: SnapshotEntry[];
  dispose(): void;
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

/** A hard link (free, and a true snapshot: attachment files are only ever replaced, never rewritten), else a copy. */
function linkOrCopy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    linkSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
    copyFileSync(from, to);
  }
}

/**
 * Copies the database with SQLite's online backup (consistent, and the server keeps serving while it
 * runs), then the attachments that copy knows of and the webhook secrets key. An attachment deleted
 * between the copy and its file's turn is dropped from the copy too, so the archive never holds a
 * row without its bytes.
 */
export async function takeSnapshot(source: SqliteFile, dataDir: string): Promise<Snapshot> {
  const staging = mkdtempSync(join(dataDir, STAGING_PREFIX));
  const dispose = () => rmSync(staging, { recursive: true, force: true });
  try {
    const databaseFile = join(staging, DATABASE_ENTRY);
    await backupTo(source, databaseFile);
    const files: { path: string; file: string }[] = [{ path: DATABASE_ENTRY, file: databaseFile }];

    const copy = openSqliteFile(databaseFile, { nativeBinding: appDatabaseFiles().nativeBinding });
    try {
      withoutWriteAheadLog(copy);
      const stored = storedAttachments(copy);
      const gone: string[] = [];
      for (const { id, projectId } of stored) {
        const path = `attachments/${projectId}/${id}`;
        try {
          linkOrCopy(join(dataDir, path), join(staging, path));
          files.push({ path, file: join(staging, path) });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          gone.push(id);
        }
      }
      deleteAttachments(copy, gone);
    } finally {
      copy.close();
    }

    // During a key rotation the previous key too: rows it sealed may not have been sealed again yet.
    for (const [file, entry] of [
      [SECRET_KEY_FILE, WEBHOOK_KEY_ENTRY],
      [PREVIOUS_SECRET_KEY_FILE, PREVIOUS_WEBHOOK_KEY_ENTRY],
    ]) {
      try {
        copyFileSync(join(dataDir, file), join(staging, entry));
        files.push({ path: entry, file: join(staging, entry) });
      } catch (err) {
        // A data folder of an older version where no webhook was ever registered has no key; most have no previous.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }

    const entries: SnapshotEntry[] = [];
    for (const { path, file } of files) {
      entries.push({ path, file, bytes: statSync(file).size, sha256: await sha256OfFile(file) });
    }
    return { entries, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}
