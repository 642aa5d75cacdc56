import { index, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { conversations } from './chat.js';
import { timestamp } from './columns.js';
import { environmentScoped } from './environment-scoped.js';
import { rooms } from './rooms.js';

export const LIVE_STREAM_STATUSES = ['CREATED', 'LIVE', 'ENDED'] as const;
export type LiveStreamStatus = (typeof LIVE_STREAM_STATUSES)[number];
export const HOST_ROLES = ['HOST', 'CO_HOST'] as const;
export type HostRole = (typeof HOST_ROLES)[number];
export const PARTICIPANT_KINDS = ['HOST', 'CO_HOST', 'VIEWER'] as const;

/** A live stream wraps one room (media) and one conversation (its chat), both of its environment. */
export const liveStreams = sqliteTable(
  'live_streams',
  {
    id: text('id').primaryKey(),
    ...environmentScoped(),
    title: text('title').notNull(),
    status: text('status', { enum: LIVE_STREAM_STATUSES }).notNull(),
    roomId: text('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at').notNull(),
    startedAt: timestamp('started_at'),
    endedAt: timestamp('ended_at'),
  },
  (t) => [
    index('live_streams_scope_idx').on(t.projectId, t.environment, t.id),
    // Every signaling join asks whether its room is a live stream's. Unique, as each stream makes its own room: SQLite
    // 3.54 (better-sqlite3 13) otherwise prefers the scope index, two equalities against one, and reads every stream of
    // the environment.
    uniqueIndex('live_streams_room_idx').on(t.roomId),
    // Deleting conversations (an environment reset, a project) checks that no stream still holds one.
    index('live_streams_conversation_idx').on(t.conversationId),
  ],
);

/** Hosts and viewers of a stream: who was invited or given a token, and when they left. */
export const liveStreamParticipants = sqliteTable(
  'live_stream_participants',
  {
    streamId: text('stream_id')
      .notNull()
      .references(() => liveStreams.id, { onDelete: 'cascade' }),
    identity: text('identity').notNull(),
    kind: text('kind', { enum: PARTICIPANT_KINDS }).notNull(),
    joinedAt: timestamp('joined_at').notNull(),
    leftAt: timestamp('left_at'),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.identity] })],
);
