import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ServiceError } from '../../errors.js';

export interface StoredFile {
  bytes: number;
  sha256: string;
}

/** Where an attachment's bytes live: `<dataDir>/attachments/<projectId>/<attachmentId>`. */
export interface AttachmentLocation {
  projectId: string;
  id: string;
}

const sizeMismatch = (declared: number, got: string) =>
  new ServiceError(
    'SERVICE_SIZE_MISMATCH',
    `The body is ${got}, but the attachment was declared as ${declared} bytes.`,
  );

/**
 * The attachments folder of the data dir. Paths are built from server-made ids only (the client's
 * filename never reaches the file system), and a file appears under its final name only complete:
 * bytes go to a temporary file that is renamed into place.
 */
export function createAttachmentStorage(dataDir: string) {
  const root = join(dataDir, 'attachments');
  const folderOf = (projectId: string) => join(root, projectId);
  const pathOf = (file: AttachmentLocation) => join(folderOf(file.projectId), file.id);

  return {
    pathOf,

    /**
     * Streams `body` to disk, refusing more or fewer bytes than `size` (400 SERVICE_SIZE_MISMATCH);
     * at most `size` bytes are ever written, and nothing is left behind on failure.
     */
    async write(file: AttachmentLocation, body: Readable, size: number): Promise<StoredFile> {
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
        await rename(temporary, pathOf(file));
        return { bytes, sha256: hash.digest('hex') };
      } catch (err) {
        await handle.close().catch(() => {});
        await rm(temporary, { force: true });
        throw err;
      }
    },

    read: (file: AttachmentLocation) => createReadStream(pathOf(file)),

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

export type AttachmentStorage = ReturnType<typeof createAttachmentStorage>;
