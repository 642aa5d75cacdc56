import { sql } from 'drizzle-orm';
import { index, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns.js';
import { environmentScoped } from './environment-scoped.js';

export const CONVERSATION_ROLES = ['MEMBER', 'MODERATOR', 'ADMIN'] as const;
export type ConversationRole = (typeof CONVERSATION_ROLES)[number];

/** A chat conversation; its id (`conv_…`) is also the `roomId` of chat webhook payloads. */
export const conversations = sqliteTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    ...environmentScoped(),
    /** Unique within a project environment. */
    name: text('name').notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** The end user who created it, or null when created with an API key alone. */
    createdBy: text('created_by'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('conversations_scope_name_idx').on(t.projectId, t.environment, t.name),
    // Lists page newest first within the scope: in index order, without sorting the environment's conversations.
    index('conversations_scope_id_idx').on(t.projectId, t.environment, t.id),
  ],
);

/** End users of the application (not project members), with their role in one conversation. */
export const conversationMembers = sqliteTable(
  'conversation_members',
  {
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    role: text('role', { enum: CONVERSATION_ROLES }).notNull(),
    joinedAt: timestamp('joined_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] }), index('conversation_members_user_idx').on(t.userId)],
);

export const messages = sqliteTable(
  'messages',
  {
    id: text('id').primaryKey(),
    ...environmentScoped(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: text('sender_id').notNull(),
    /** Empty once deleted: the row stays as a tombstone so threads keep their shape. */
    text: text('text').notNull(),
    parentId: text('parent_id'),
    attachmentIds: text('attachment_ids', { mode: 'json' }).$type<string[]>().notNull(),
    createdAt: timestamp('created_at').notNull(),
    editedAt: timestamp('edited_at'),
    deletedAt: timestamp('deleted_at'),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationId, t.id),
    // Replies only: most messages start no thread, and a row left out of an index is one b-tree write less
    // per message. Thread and reply-count queries (`parent_id = ?`, `IN (…)`) imply NOT NULL, so they use it.
    index('messages_parent_idx').on(t.parentId, t.id).where(sql`${t.parentId} IS NOT NULL`),
  ],
);

export const reactions = sqliteTable(
  'reactions',
  {
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    emoji: text('emoji').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId, t.emoji] })],
);

/** How far each member has read: the newest message id they have seen. */
export const readStates = sqliteTable(
  'read_states',
  {
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    lastReadMessageId: text('last_read_message_id').notNull(),
    readAt: timestamp('read_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] })],
);
