import { createHash } from 'node:crypto';
import { closeSync, createReadStream, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { DATABASE_FILE, latestAppliedMigration, openSqliteFile } from '../../db/connection.js';
import { lockDataDir } from '../../db/data-dir-lock.js';
import { latestKnownMigration } from '../../db/migration-journal.js';
import { appDatabaseFiles } from '../app-files/database-files.js';
import { PREVIOUS_SECRET_KEY_FILE, SECRET_KEY_FILE } from '../webhooks/secret-box.js';
import { describeDataDir } from './data-dir.js';
import {
  ArchiveRefusedError,
  DATABASE_ENTRY,
  isArchivePath,
  MANIFEST_ENTRY,
  type Manifest,
  PREVIOUS_WEBHOOK_KEY_ENTRY,
  parseManifest,
  WEBHOOK_KEY_ENTRY,
} from './manifest.js';
import { removeLeftoverStaging, STAGING_PREFIX } from './staging.js';
import { ArchiveFormatError, readTar, type TarEntrySink } from './tar.js';

/** The data folder holds data and the import was not told to replace it. */
export class ImportRefusedError extends Error {}

const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** What an archive's entries are called in the data folder. */
const TARGETS: Record<string, string> = {
  [DATABASE_ENTRY]: DATABASE_FILE,
  [WEBHOOK_KEY_ENTRY]: SECRET_KEY_FILE,
  [PREVIOUS_WEBHOOK_KEY_ENTRY]: PREVIOUS_SECRET_KEY_FILE,
};
const targetOf = (path: string) => TARGETS[path] ?? path;

/** Unpacks and checks every entry against the manifest into `staging`; returns the manifest. */
export async function unpack(file: string, staging: string, switchboardVersion: string): Promise<Manifest> {
  let manifest: Manifest | undefined;
  let listed = new Map<string, Manifest['entries'][number]>();
  const seen = new Set<string>();
  const manifestChunks: Buffer[] = [];
  let manifestBytes = 0;
  let openFile: number | undefined;

  await readTar(createReadStream(file).pipe(createGunzip()), ({ name, size }): TarEntrySink => {
    if (!manifest) {
      if (name !== MANIFEST_ENTRY)
        throw new ArchiveRefusedError('Not a Switchboard archive: it does not start with its manifest.');
      if (size > MAX_MANIFEST_BYTES)
        throw new ArchiveRefusedError('Not a Switchboard archive: its manifest is too large.');
      return {
        write(chunk) {
          manifestChunks.push(chunk);
          manifestBytes += chunk.length;
        },
        end() {
          manifest = parseManifest(Buffer.concat(manifestChunks, manifestBytes).toString('utf8'), switchboardVersion);
          listed = new Map(manifest.entries.map((entry) => [entry.path, entry]));
        },
      };
    }
    const expected = listed.get(name);
    if (!expected || !isArchivePath(name) || seen.has(name))
      throw new ArchiveRefusedError(`The archive holds ${name}, which its manifest does not list.`);
    if (expected.bytes !== size)
      throw new ArchiveRefusedError(`The archive's ${name} is not the size its manifest says.`);
    seen.add(name);
    const target = join(staging, targetOf(name));
    mkdirSync(dirname(target), { recursive: true });
    const fd = openSync(target, 'wx', 0o600);
    openFile = fd;
    const hash = createHash('sha256');
    return {
      write(chunk) {
        hash.update(chunk);
        writeSync(fd, chunk);
      },
      end() {
        closeSync(fd);
        openFile = undefined;
        if (hash.digest('hex') !== expected.sha256)
          throw new ArchiveRefusedError(`The archive is damaged: ${name} does not match its checksum.`);
      },
    };
  }).catch((err: unknown) => {
    if (openFile !== undefined) closeSync(openFile);
    // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR for a cut file) say the gzip layer is damaged.
    if (err instanceof ArchiveFormatError || /^Z_/.test(String((err as NodeJS.ErrnoException).code)))
      throw new ArchiveRefusedError(`Not a Switchboard archive, or a damaged one: ${(err as Error).message}`);
    throw err;
  });

  if (!manifest) throw new ArchiveRefusedError('Not a Switchboard archive: it is empty.');
  const missing = manifest.entries.find((entry) => !seen.has(entry.path));
  if (missing) throw new ArchiveRefusedError(`The archive is truncated: ${missing.path} is missing.`);
  if (!seen.has(DATABASE_ENTRY)) throw new ArchiveRefusedError('The archive holds no database.');
  return manifest;
}

/** Refuses a database migrated by a newer Switchboard than this one: its schema would be misread. */
export function checkSchema(staging: string, manifest: Manifest, switchboardVersion: string): void {
  const files = appDatabaseFiles();
  const sqlite = openSqliteFile(join(staging, DATABASE_FILE), {
    readonly: true,
    fileMustExist: true,
    nativeBinding: files.nativeBinding,
  });
  try {
    const known = latestKnownMigration(files.migrationsFolder);
    if (latestAppliedMigration(sqlite) > known.when)
      throw new ArchiveRefusedError(
        `The archive's database was written by Switchboard ${manifest.switchboardVersion} with a newer schema than ` +
          `this Switchboard (${switchboardVersion}, schema ${known.tag}) knows. Upgrade Switchboard to import it.`,
      );
  } catch (err) {
    if (err instanceof ArchiveRefusedError) throw err;
    throw new ArchiveRefusedError(`The archive's database cannot be read: ${(err as Error).message}`);
  } finally {
    sqlite.close();
  }
}

/** Removes the data folder's state (not its lock) and moves the staged one in. */
function swapIn(dataDir: string, staging: string, manifest: Manifest): void {
  const state = [
    DATABASE_FILE,
    `${DATABASE_FILE}-wal`,
    `${DATABASE_FILE}-shm`,
    SECRET_KEY_FILE,
    PREVIOUS_SECRET_KEY_FILE,
  ];
  for (const name of [...state, 'attachments']) rmSync(join(dataDir, name), { recursive: true, force: true });
  const moved = new Set<string>();
  for (const { path } of manifest.entries) {
    const top = targetOf(path).split('/')[0];
    if (moved.has(top)) continue;
    moved.add(top);
    renameSync(join(staging, top), join(dataDir, top));
  }
}

/**
 * Restores an archive into `dataDir`, which no server may be using (its lock is held meanwhile).
 * The archive is unpacked and checked in full (format version, manifest, every checksum, schema)
 * before anything in the folder changes; a folder that holds accounts or projects is refused unless
 * `replace`. Returns the manifest.
 */
export async function importArchive(
  file: string,
  dataDir: string,
  options: { replace: boolean; switchboardVersion: string },
): Promise<Manifest> {
  const lock = lockDataDir(dataDir, appDatabaseFiles().nativeBinding);
  let staging: string | undefined;
  try {
    removeLeftoverStaging(dataDir);
    const contents = describeDataDir(dataDir);
    if (contents && !options.replace)
      throw new ImportRefusedError(
        `The data folder ${dataDir} already holds ${contents}; an import never merges into it. ` +
          'Pass --replace to replace everything in it with the archive, or choose an empty --data-dir.',
      );
    staging = mkdtempSync(join(dataDir, STAGING_PREFIX));
    const manifest = await unpack(file, staging, options.switchboardVersion);
    checkSchema(staging, manifest, options.switchboardVersion);
    swapIn(dataDir, staging, manifest);
    return manifest;
  } finally {
    if (staging) rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}
