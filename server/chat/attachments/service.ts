import type { Readable } from 'node:stream';
import { and, eq, inArray, isNull, lte, ne, type SQL } from 'drizzle-orm';
import { attachments } from '../../../db/schema/attachments.js';
import { conversations as conversationsTable } from '../../../db/schema/chat.js';
import { type EnvironmentScope, inScope, scopeValues } from '../../../db/scope.js';
import type { Queries } from '../../../db/store.js';
import type { Infrastructure } from '../../context.js';
import { conflict, notFound, ServiceError, validationFailed } from '../../errors.js';
import { madeFromKey } from '../../secrets.js';
import type { ChatCaller } from '../caller.js';
import type { ConversationAccess, ConversationService } from '../conversations/service.js';
import { DOWNLOAD_URL_TTL_MS, INCOMPLETE_ATTACHMENT_TTL_MS, UPLOAD_URL_TTL_MS } from './limits.js';
import { createUrlSigner } from './signed-urls.js';

export type AttachmentRow = typeof attachments.$inferSelect;

export const attachmentNotFound = (id: string) =>
  notFound('SERVICE_ATTACHMENT_NOT_FOUND', `No attachment ${id} that you can see in this environment.`);

/** `text/plain; charset=utf-8` → `text/plain`: what the upload's Content-Type is compared on. */
const mediaType = (header: string | undefined) => header?.split(';')[0].trim().toLowerCase() ?? '';

/**
 * Attachments, as presigned-URL storage services do them: create declares the file and returns an
 * upload URL; the client PUTs the bytes there; complete confirms; download URLs are signed too. The
 * URLs are this server's own (`/v1/chat/attachments/{id}/content`); the bytes live where the store keeps them
 * (`attachmentStorage`: files in the data folder beside SQLite, rows of PostgreSQL).
 */
export function createAttachmentService(
  { store, keys, clock, ids, attachmentStorage: storage }: Infrastructure,
  conversations: ConversationService,
) {
  const { db } = store;
  const signer = madeFromKey(keys.signingKey('attachment-url-key'), (key) => createUrlSigner(key, clock));

  const abandoned = (row: AttachmentRow) =>
    row.status !== 'COMPLETED' && row.createdAt + INCOMPLETE_ATTACHMENT_TTL_MS <= clock.now();

  /**
   * Deletes the files of deleted rows; called after the commit: a file without a row is harmless, a row without its
   * file is not.
   */
  const fileRemover = (files: { projectId: string; id: string }[]) => () => {
    for (const file of files) storage.remove(file);
  };
  const deletedFiles = { projectId: attachments.projectId, id: attachments.id };

  /**
   * Deletes the uploads not completed within INCOMPLETE_ATTACHMENT_TTL_MS of their creation (among `which`), rows
   * then files; returns how many. The deadline is checked by the delete itself, so that an upload completed meanwhile
   * stays.
   */
  async function deleteAbandoned(which?: SQL): Promise<number> {
    const cutoff = clock.now() - INCOMPLETE_ATTACHMENT_TTL_MS;
    // The incomplete statuses by name, not `<> 'COMPLETED'`: only then does SQLite use the (status, created_at) index.
    const incomplete = inArray(attachments.status, ['PENDING', 'UPLOADED']);
    const files = await store.transaction((tx) =>
      tx
        .delete(attachments)
        .where(and(incomplete, lte(attachments.createdAt, cutoff), which))
        .returning(deletedFiles),
    );
    fileRemover(files)();
    return files.length;
  }

  /** The row in `scope`, or 404; an upload abandoned past its deadline is deleted on sight. */
  async function find(scope: EnvironmentScope, id: string): Promise<AttachmentRow> {
    const [row] = await db
      .select()
      .from(attachments)
      .where(inScope(attachments, scope, eq(attachments.id, id)))
      .limit(1);
    if (!row) throw attachmentNotFound(id);
    if (abandoned(row)) {
      await deleteAbandoned(eq(attachments.id, row.id));
      throw attachmentNotFound(id);
    }
    return row;
  }

  /** The attachment and the caller's access to its conversation; 404 if either is out of reach. */
  async function access(
    caller: ChatCaller,
    id: string,
  ): Promise<{ attachment: AttachmentRow; conversation: ConversationAccess }> {
    const attachment = await find(caller.scope, id);
    const conversation = await conversations.access(caller, attachment.conversationId, () => attachmentNotFound(id));
    return { attachment, conversation };
  }

  return {
    access,
    storage,

    async create(
      conversation: ConversationAccess,
      uploaderId: string | null,
      input: { filename: string; contentType: string; size: number },
    ) {
      const { conversation: c } = conversation;
      const scope = { projectId: c.projectId, environment: c.environment };
      const attachment: AttachmentRow = {
        id: ids.next('att'),
        ...scopeValues(scope),
        conversationId: c.id,
        uploaderId,
        filename: input.filename,
        contentType: input.contentType,
        size: input.size,
        status: 'PENDING',
        sha256: null,
        messageId: null,
        createdAt: clock.now(),
        uploadedAt: null,
        completedAt: null,
      };
      const urls = await signer();
      await store.transaction(async (tx) => {
        await tx.insert(attachments).values(attachment);
      });
      return { attachment, upload: urls.sign('upload', scope, attachment.id, UPLOAD_URL_TTL_MS) };
    },

    /**
     * The PUT of an upload URL. Content-Type must be the declared one (415) and the body exactly the
     * declared size (400); the bytes stream to disk, never more than declared. Until completed an
     * upload may be repeated (a retry after a lost response); a completed attachment is immutable.
     */
    async receive(
      id: string,
      query: Record<string, unknown>,
      headers: { contentType: string | undefined; contentLength: string | undefined },
      body: Readable,
    ): Promise<AttachmentRow> {
      const scope = (await signer()).verify('upload', id, query);
      const attachment = await find(scope, id);
      if (attachment.status === 'COMPLETED')
        throw conflict('SERVICE_ATTACHMENT_COMPLETED', 'This attachment is completed; its bytes cannot change.');
      if (mediaType(headers.contentType) !== attachment.contentType)
        throw new ServiceError(
          'SERVICE_CONTENT_TYPE_MISMATCH',
          `Send the bytes with Content-Type: ${attachment.contentType}, as declared (got ${headers.contentType ?? 'none'}).`,
        );
      if (headers.contentLength !== undefined && Number(headers.contentLength) !== attachment.size)
        throw new ServiceError(
          'SERVICE_SIZE_MISMATCH',
          `Content-Length is ${headers.contentLength}, but the attachment was declared as ${attachment.size} bytes.`,
        );
      const staged = await storage.stage(attachment, body, attachment.size);
      try {
        // Recorded and placed together or not at all: a `complete` that landed while the bytes streamed
        // in keeps the file and sha256 it completed with.
        const updated = await store.transaction(async (tx) => {
          const [row] = await tx
            .update(attachments)
            .set({ status: 'UPLOADED', sha256: staged.sha256, uploadedAt: clock.now() })
            .where(and(eq(attachments.id, id), ne(attachments.status, 'COMPLETED')))
            .returning();
          if (row) await staged.place();
          return row;
        });
        if (!updated)
          throw conflict(
            'SERVICE_ATTACHMENT_COMPLETED',
            'This attachment was completed or deleted during the upload; nothing was replaced.',
          );
        return updated;
      } finally {
        staged.discard(); // what was not placed (once placed, the temporary file is gone)
      }
    },

    /** Only the uploader (or a server) completes, and only once the bytes are there (else 409). */
    async complete(caller: ChatCaller, id: string): Promise<AttachmentRow> {
      const { attachment } = await access(caller, id);
      if (caller.kind === 'user' && caller.userId !== attachment.uploaderId)
        throw new ServiceError('SERVICE_PERMISSION_DENIED', 'Only the uploader can complete an attachment.');
      if (attachment.status === 'COMPLETED') return attachment;
      if (attachment.status === 'PENDING')
        throw conflict(
          'SERVICE_ATTACHMENT_NOT_UPLOADED',
          'Upload the bytes to the uploadUrl before completing the attachment.',
        );
      const [completed] = await store.transaction((tx) =>
        tx
          .update(attachments)
          .set({ status: 'COMPLETED', completedAt: clock.now() })
          .where(eq(attachments.id, id))
          .returning(),
      );
      if (!completed) throw attachmentNotFound(id); // deleted since it was read
      return completed;
    },

    /** Any member of the conversation (or a server) may download a completed attachment. */
    async downloadUrl(caller: ChatCaller, id: string) {
      const { attachment } = await access(caller, id);
      if (attachment.status !== 'COMPLETED')
        throw conflict('SERVICE_ATTACHMENT_NOT_COMPLETED', 'The attachment is not completed yet.');
      return (await signer()).sign('download', caller.scope, attachment.id, DOWNLOAD_URL_TTL_MS);
    },

    /** The GET of a download URL: the completed attachment whose bytes to send. */
    async downloadable(id: string, query: Record<string, unknown>): Promise<AttachmentRow> {
      const attachment = await find((await signer()).verify('download', id, query), id);
      if (attachment.status !== 'COMPLETED') throw attachmentNotFound(id);
      return attachment;
    },

    /**
     * Attaches to a new message, inside its transaction: each id must be a completed attachment of
     * the conversation, not yet on a message, and uploaded by the sender when a user sends (400).
     */
    /** Puts the attachments on the message, or refuses them all; answers them as they now are, in `attachmentIds` order. */
    async claim(
      tx: Queries,
      conversation: ConversationAccess,
      senderId: string,
      attachmentIds: string[],
      messageId: string,
    ): Promise<AttachmentRow[]> {
      const c = conversation.conversation;
      const unique = [...new Set(attachmentIds)];
      if (unique.length !== attachmentIds.length) throw validationFailed('attachmentIds: an id is listed twice.');
      const claimed: AttachmentRow[] = [];
      for (const id of unique) {
        const [row] = await tx
          .select()
          .from(attachments)
          .where(inScope(attachments, c, eq(attachments.id, id), eq(attachments.conversationId, c.id)))
          .limit(1);
        if (!row) throw validationFailed(`attachmentIds: no attachment ${id} in this conversation.`);
        if (row.status !== 'COMPLETED') throw validationFailed(`attachmentIds: ${id} is not completed.`);
        if (row.messageId !== null) throw validationFailed(`attachmentIds: ${id} is already on a message.`);
        if (conversation.caller.kind === 'user' && row.uploaderId !== senderId)
          throw validationFailed(`attachmentIds: ${id} was uploaded by someone else.`);
        claimed.push({ ...row, messageId });
      }
      if (claimed.length > 0)
        await tx
          .update(attachments)
          .set({ messageId })
          .where(and(inArray(attachments.id, unique), isNull(attachments.messageId)));
      return claimed;
    },

    /** What a message view shows of its attachments, in the message's order. */
    async summaries(scope: EnvironmentScope, attachmentIds: string[]): Promise<Map<string, AttachmentRow>> {
      if (attachmentIds.length === 0) return new Map();
      const rows = await db
        .select()
        .from(attachments)
        .where(inScope(attachments, scope, inArray(attachments.id, attachmentIds)));
      return new Map(rows.map((r) => [r.id, r]));
    },

    /**
     * A deleted message takes its attachments with it: rows and files, so old download URLs stop working. The rows
     * go in the message's transaction; the function returned deletes the files, after the commit.
     */
    async deleteForMessageIn(tx: Queries, scope: EnvironmentScope, messageId: string): Promise<() => void> {
      return fileRemover(
        await tx
          .delete(attachments)
          .where(inScope(attachments, scope, eq(attachments.messageId, messageId)))
          .returning(deletedFiles),
      );
    },

    /**
     * An environment reset takes every attachment of the scope: the rows go in the caller's transaction (found through
     * the scope's conversations, whose index they share), the function returned deletes their files after the commit.
     */
    async deleteInScopeIn(
      tx: Queries,
      scope: EnvironmentScope,
    ): Promise<{ removed: number; removeFiles(keep?: ReadonlySet<string>): void }> {
      const ofScope = inArray(
        attachments.conversationId,
        tx.select({ id: conversationsTable.id }).from(conversationsTable).where(inScope(conversationsTable, scope)),
      );
      const files = await tx.delete(attachments).where(ofScope).returning(deletedFiles);
      // `keep`: the ids whose bytes were put back meanwhile (a snapshot's restore), whose files are not the old ones.
      return {
        removed: files.length,
        removeFiles: (keep) => fileRemover(keep ? files.filter((file) => !keep.has(file.id)) : files)(),
      };
    },

    /**
     * Deletes every attachment not completed within INCOMPLETE_ATTACHMENT_TTL_MS of its creation, in
     * every project and environment (a server-wide job, like webhook delivery). Returns how many.
     */
    sweep(): Promise<number> {
      return deleteAbandoned();
    },
  };
}

export type AttachmentService = ReturnType<typeof createAttachmentService>;
