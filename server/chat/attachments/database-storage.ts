import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { ATTACHMENT_CHUNK_BYTES, attachmentChunks } from '../../../db/schema/attachments.js';
import type { Store } from '../../../db/store.js';
import { ServiceError } from '../../errors.js';
import type { AttachmentLocation, AttachmentStorage } from './storage.js';

const sizeMismatch = (declared: number, got: string) =>
  new ServiceError(
    'SERVICE_SIZE_MISMATCH',
    `The body is ${got}, but the attachment was declared as ${declared} bytes.`,
  );

/** Cuts received pieces into the chunks a row holds: all ATTACHMENT_CHUNK_BYTES long but the last. */
function rechunk(pieces: Buffer[]): Buffer[] {
  const whole = Buffer.concat(pieces);
  const chunks: Buffer[] = [];
  for (let start = 0; start < whole.length; start += ATTACHMENT_CHUNK_BYTES)
    chunks.push(whole.subarray(start, start + ATTACHMENT_CHUNK_BYTES));
  return chunks;
}

/**
 * Attachment bytes in the database (`attachment_chunks`), for a server whose store is PostgreSQL: every node of a
 * team's server reads the same bytes, and the database's backups hold them. An upload is received in memory (25 MB
 * at most, MAX_ATTACHMENT_BYTES), checked, and written in the transaction that records it, so that bytes and row
 * land together or not at all; reads stream one chunk at a time. Rows of an attachment go with it (on delete
 * cascade), so deletions need no second step.
 */
export function createDatabaseAttachmentStorage(store: Store): AttachmentStorage {
  const { db } = store;
  return {
    async stage(file: AttachmentLocation, body: Readable, size: number) {
      const hash = createHash('sha256');
      const pieces: Buffer[] = [];
      let bytes = 0;
      for await (const piece of body as AsyncIterable<Buffer>) {
        bytes += piece.length;
        if (bytes > size) throw sizeMismatch(size, 'longer');
        hash.update(piece);
        pieces.push(piece);
      }
      if (bytes !== size) throw sizeMismatch(size, `${bytes} bytes`);
      return {
        bytes,
        sha256: hash.digest('hex'),
        /** Writes the bytes: call it inside the transaction that records them. */
        async place() {
          await db.delete(attachmentChunks).where(eq(attachmentChunks.attachmentId, file.id));
          const chunks = rechunk(pieces);
          for (const [position, chunk] of chunks.entries())
            await db.insert(attachmentChunks).values({ attachmentId: file.id, position, bytes: chunk });
        },
        discard() {
          pieces.length = 0;
        },
      };
    },

    async read(file: AttachmentLocation): Promise<Readable> {
      return Readable.from(
        (async function* chunks() {
          for (let position = 0; ; position++) {
            const [chunk] = await db
              .select({ bytes: attachmentChunks.bytes })
              .from(attachmentChunks)
              .where(and(eq(attachmentChunks.attachmentId, file.id), eq(attachmentChunks.position, position)))
              .limit(1);
            if (!chunk) return;
            yield chunk.bytes;
          }
        })(),
      );
    },

    /** Nothing is staged outside memory, so no upload outlives its process. */
    removeLeftoverUploads: () => 0,

    /** A deleted project's attachments, and their chunks, went with it (cascade). */
    removeProject(_projectId: string): void {},

    /** A deleted attachment's chunks went with its row (cascade). */
    remove(_file: AttachmentLocation): void {},
  };
}
