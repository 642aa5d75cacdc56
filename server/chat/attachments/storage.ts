import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ServiceError } from '../../errors.js';

/**
 * Bytes received in full but not yet in place: the caller decides, once the database agrees, whether
 * they become the attachment's file (`place`) or are thrown away (`discard`).
 */
export interface StagedFile {
  bytes: number;
  sha256: string;
  /** Puts the bytes in place: call it (and await it) inside the transaction that records them. */
  place(): void | Promise<void>;
  discard(): void;
}

/**
 * Where attachment bytes are kept, chosen with the store (server/open-store.ts): files in the data folder
 * (`createAttachmentStorage`, beside SQLite) or rows of the database (`createDatabaseAttachmentStorage`, for
 * PostgreSQL, whose servers share no folder).
 */
export interface AttachmentStorage {
  /**
   * Receives `body`, refusing more or fewer bytes than `size` (400 SERVICE_SIZE_MISMATCH); nothing is in place until
   * `place`.
   */
  stage(file: AttachmentLocation, body: Readable, size: number): Promise<StagedFile>;
  /** The bytes, once they are known to be there (rejects when they are gone). */
  read(file: AttachmentLocation): Promise<Readable>;
  /** Throws away what uploads interrupted by a stopped process left (called at start); answers how many. */
  removeLeftoverUploads(): number;
  /** What a deleted project's attachments left beside their rows. */
  removeProject(projectId: string): void;
  /** What a deleted attachment left beside its row, after the commit that deleted the row. */
  remove(file: AttachmentLocation): void;
}

/** Where an attachment's bytes live: `<dataDir>/attachments/<projectId>/<attachmentId>`. */
export interface AttachmentLocation {
  projectId: string;
  id: string;
}

/** A temporary file of `stage`: `.<attachmentId>.<random>.part`. */
const TEMPORARY_NAME = /^\.att_[0-9A-Za-z]+\.[0-9a-f]+\.part$/;

const sizeMismatch = (declared: number, got: string) =>
  new ServiceError(
    'SERVICE_SIZE_MISMATCH',
    `The body is ${got}, but the attachment was declared as ${declared} bytes.`,
  );

/**
 * The attachments folder of the data dir. Paths are built from server-made ids only (the client's
 * filename never reaches the file system), and a file appears under its final name only complete and
 * accepted: bytes go to a temporary file that is renamed into place once the row records them.
 */
export function createAttachmentStorage(
  dataDir: string,
): AttachmentStorage & { pathOf(file: AttachmentLocation): string } {
  const root = join(dataDir, 'attachments');
  const folderOf = (projectId: string) => join(root, projectId);
  const pathOf = (file: AttachmentLocation) => join(folderOf(file.projectId), file.id);

  return {
    pathOf,

    /**
     * Streams `body` to a temporary file, refusing more or fewer bytes than `size` (400
     * SERVICE_SIZE_MISMATCH); at most `size` bytes are ever written, and nothing is left behind on failure.
     */
    async stage(file: AttachmentLocation, body: Readable, size: number): Promise<StagedFile> {
      mkdirSync(folderOf(file.projectId), { recursive: true });
      const temporary = join(folderOf(file.projectId), `.${file.id}.${randomBytes(6).toString('hex')}.part`);
      const handle = await open(temporary, 'wx');
      const hash = createHash('sha256');
      let bytes = 0;
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          if (bytes > size) throw sizeMismatch(size, 'longer');
          hash.update(chunk);
          await handle.write(chunk);
        }
        if (bytes !== size) throw sizeMismatch(size, `${bytes} bytes`);
        await handle.sync();
        await handle.close();
        return {
          bytes,
          sha256: hash.digest('hex'),
          place: () => renameSync(temporary, pathOf(file)),
          discard: () => rmSync(temporary, { force: true }),
        };
      } catch (err) {
        await handle.close().catch(() => {});
        await rm(temporary, { force: true });
        throw err;
      }
    },

    read(file: AttachmentLocation): Promise<Readable> {
      const stream = createReadStream(pathOf(file));
      return new Promise((resolve, reject) => {
        stream.once('open', () => resolve(stream));
        stream.once('error', (err) => {
          stream.destroy();
          reject(err);
        });
      });
    },

    /**
     * Deletes the temporary files of uploads that never finished because the process stopped mid-way (a crash, a
     * kill): at start-up no upload is running, since the data folder's lock keeps out any other server. Returns
     * how many were deleted.
     */
    removeLeftoverUploads(): number {
      let removed = 0;
      if (!existsSync(root)) return removed;
      for (const project of readdirSync(root, { withFileTypes: true })) {
        if (!project.isDirectory()) continue;
        for (const name of readdirSync(join(root, project.name))) {
          if (!TEMPORARY_NAME.test(name)) continue;
          rmSync(join(root, project.name, name), { force: true });
          removed++;
        }
      }
      return removed;
    },

    /** Deletes a deleted project's folder (its rows went with the project, by cascade). */
    removeProject(projectId: string): void {
      if (!/^prj_[0-9A-Z]+$/.test(projectId)) return; // only ever a server-made id, never a path
      rmSync(folderOf(projectId), { recursive: true, force: true });
    },

    /** Deletes the file if it is there (cleanup and deletions may race; both are fine). */
    remove(file: AttachmentLocation): void {
      rmSync(pathOf(file), { force: true });
    },
  };
}
