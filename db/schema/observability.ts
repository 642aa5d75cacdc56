import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns.js';
import { environmentScoped } from './environment-scoped.js';

export const CONNECTION_KINDS = ['signaling', 'realtime'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

/**
 * Every signaling and realtime socket that was admitted: a row when it opens, closed when it ends.
 * No foreign key to rooms: the record of a connection outlives its room.
 */
export const connectionLog = sqliteTable(
  'connection_log',
  {
    id: text('id').primaryKey(),
    ...environmentScoped(),
    kind: text('kind', { enum: CONNECTION_KINDS }).notNull(),
    /** The RTC identity, or the chat user id. */
    identity: text('identity').notNull(),
    roomId: text('room_id'),
    conversationId: text('conversation_id'),
    connectedAt: timestamp('connected_at').notNull(),
    disconnectedAt: timestamp('disconnected_at'),
    closeCode: integer('close_code'),
    closeReason: text('close_reason'),
    /** The node that holds (or held) it: one of several servers on the database; null before they were named. */
    nodeId: text('node_id'),
    /**
     * Media through the server (`--rtc-media sfu`), what the connection carried, written when it ends: RTP payload
     * bytes received from it and sent to it, and packets lost on the way in (sequence gaps) and on the way out (its
     * receiver reports). Null for a connection without media through the server.
     */
    mediaBytesIn: integer('media_bytes_in'),
    mediaBytesOut: integer('media_bytes_out'),
    mediaPacketsLostIn: integer('media_packets_lost_in'),
    mediaPacketsLostOut: integer('media_packets_lost_out'),
  },
  (t) => [
    index('connection_log_scope_idx').on(t.projectId, t.environment, t.id),
    index('connection_log_open_idx').on(t.disconnectedAt),
  ],
);

/** The 4xx and 5xx answers of runtime routes (API key, chat or RTC credential), newest kept. */
export const errorLog = sqliteTable(
  'error_log',
  {
    id: text('id').primaryKey(),
    ...environmentScoped(),
    requestId: text('request_id').notNull(),
    status: integer('status').notNull(),
    code: text('code').notNull(),
    message: text('message').notNull(),
    method: text('method').notNull(),
    /** The route pattern, e.g. `/v1/rooms/{id}`: never the raw path, which may carry ids. */
    route: text('route').notNull(),
    credential: text('credential').notNull(),
    occurredAt: timestamp('occurred_at').notNull(),
  },
  (t) => [index('error_log_scope_idx').on(t.projectId, t.environment, t.id)],
);

/** Per-minute counters, flushed from memory every few seconds; a missing row is a zero. */
export const metricBuckets = sqliteTable(
  'metric_buckets',
  {
    ...environmentScoped(),
    name: text('name').notNull(),
    /** Start of the minute, ms since the epoch. */
    minute: timestamp('minute').notNull(),
    value: integer('value').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.environment, t.name, t.minute] }),
    index('metric_buckets_minute_idx').on(t.minute),
  ],
);
