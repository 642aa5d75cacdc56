import { blob, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { conversations } from './chat.js';
import { timestamp } from './columns.js';
import { environmentScoped } from './environment-scoped.js';

/** PENDING: declared, no bytes yet. UPLOADED: the bytes are on disk. COMPLETED: the uploader confirmed it. */
export const ATTACHMENT_STATUSES = ['PENDING', 'UPLOADED', 'COMPLETED'] as const;
export type AttachmentStatus = (typeof ATTACHMENT_STATUSES)[number];

/**
 * A file shared in a conversation. The bytes live in the data dir at
 * `attachments/<projectId>/<id>`, never under the client's filename.
 */
export const attachments = sqliteTable(
  'attachments',
  {
    id: text('id').primaryKey(),
    ...environmentScoped(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** The end user who uploads it; null when a server created it with an API key for no user. */
    uploaderId: text('uploader_id'),
    /** As the client declared it; only ever shown and sent back in Content-Disposition. */
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    status: text('status', { enum: ATTACHMENT_STATUSES }).notNull(),
    /** Hex SHA-256 of the stored bytes, once uploaded. */
    sha256: text('sha256'),
    /** The message it was sent with: an attachment belongs to one message at most. */
    messageId: text('message_id'),
    createdAt: timestamp('created_at').notNull(),
    uploadedAt: timestamp('uploaded_at'),
    completedAt: timestamp('completed_at'),
  },
  (t) => [
    index('attachments_conversation_idx').on(t.conversationId),
    index('attachments_message_idx').on(t.messageId),
    index('attachments_status_created_idx').on(t.status, t.createdAt),
  ],
);

/** How many bytes one row of `attachment_chunks` holds: big enough to be few rows, small enough to stream. */
export const ATTACHMENT_CHUNK_BYTES = 1024 * 1024;

/**
 * An attachment's bytes kept in the database, in order, when there is no data folder to keep them in (a server on
 * PostgreSQL). A server on SQLite keeps them as files instead, and leaves this table empty.
 */
export const attachmentChunks = sqliteTable(
  'attachment_chunks',
  {
    attachmentId: text('attachment_id')
      .notNull()
      .references(() => attachments.id, { onDelete: 'cascade' }),
    /** 0, 1, 2…: the chunk's place in the file. */
    position: integer('position').notNull(),
    bytes: blob('bytes', { mode: 'buffer' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.attachmentId, t.position] })],
);
