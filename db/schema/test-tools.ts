import { blob, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns.js';
import { environmentScoped } from './environment-scoped.js';

/**
 * An environment's test clock: how far ahead of real time it runs. No row: real time. Only development and staging
 * ever have one (production's clock is never moved).
 */
export const environmentClocks = sqliteTable(
  'environment_clocks',
  {
    ...environmentScoped(),
    /** Milliseconds added to real time; only ever grows until the clock is reset (the row deleted). */
    offsetMs: integer('offset_ms').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.environment] })],
);

/**
 * Faults injected into an environment's traffic, each until it expires or is removed: for testing how an app
 * copes with duplicate or late webhooks, failing or slow API calls. Never production's.
 */
export const environmentFaults = sqliteTable(
  'environment_faults',
  {
    /** `flt_` id. */
    id: text('id').primaryKey(),
    ...environmentScoped(),
    /** What is injected, e.g. `webhook.duplicate`, `api.unavailable` (server/faults/schemas.ts lists them). */
    kind: text('kind').notNull(),
    /** The share of the traffic it applies to, 1 to 100. */
    percent: integer('percent').notNull(),
    /** For the kinds that delay: how long. */
    delayMs: integer('delay_ms'),
    createdAt: timestamp('created_at').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
  },
  (t) => [index('environment_faults_scope_idx').on(t.projectId, t.environment, t.expiresAt)],
);

/**
 * A named snapshot of an environment's runtime data (server/environment-snapshots): what an environment reset
 * removes, kept as one compressed document, so that a restore gives it all back as it was. Never production's.
 */
export const environmentSnapshots = sqliteTable(
  'environment_snapshots',
  {
    ...environmentScoped(),
    /** Chosen by whoever saves it; unique in the environment. */
    name: text('name').notNull(),
    createdAt: timestamp('created_at').notNull(),
    /** The address of the user who saved it, as the audit log keeps it (kept when the account goes). */
    createdBy: text('created_by'),
    /** How many rows of each kind it holds, by the names of an environment reset's counts. */
    counts: text('counts', { mode: 'json' }).$type<Record<string, number>>().notNull(),
    /** The size of `content`, for lists that do not read it. */
    sizeBytes: integer('size_bytes').notNull(),
    /** The rows and attachment bytes: gzip-compressed JSON (server/environment-snapshots/document.ts). */
    content: blob('content', { mode: 'buffer' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.environment, t.name] })],
);

/**
 * Recordings of an environment's traffic (server/recordings), downloaded as HAR files: one row each, its state and
 * what it has taken so far (its limits are checked against these counters, which every node adds to).
 */
export const environmentRecordings = sqliteTable(
  'environment_recordings',
  {
    /** `rec_` id. */
    id: text('id').primaryKey(),
    ...environmentScoped(),
    /** `recording` until stopped or a limit ends it, then `stopped`. */
    state: text('state').notNull(),
    /** Why it stopped: `stopped` (asked), `size_limit`, `duration_limit`; null while recording. */
    endReason: text('end_reason'),
    maxBytes: integer('max_bytes').notNull(),
    maxDurationMs: integer('max_duration_ms').notNull(),
    /** The recorded entries' size (their stored JSON) and count. */
    bytes: integer('bytes').notNull().default(0),
    entries: integer('entries').notNull().default(0),
    startedAt: timestamp('started_at').notNull(),
    endedAt: timestamp('ended_at'),
  },
  (t) => [
    index('environment_recordings_scope_idx').on(t.projectId, t.environment, t.id),
    index('environment_recordings_state_idx').on(t.state),
  ],
);

/**
 * What a recording took, one row per REST exchange, webhook attempt, socket opening, frame or closing: `data` is the
 * entry's JSON with its secrets already replaced (server/recordings/redact.ts), `at` the wall time and `clock_at`
 * the environment's test-clock time.
 */
export const recordingEntries = sqliteTable(
  'recording_entries',
  {
    /** `rce_` id: entries sort in the order they were taken (by node). */
    id: text('id').primaryKey(),
    recordingId: text('recording_id')
      .notNull()
      .references(() => environmentRecordings.id, { onDelete: 'cascade' }),
    /** `http`, `webhook`, `socket_open`, `frame`, `socket_close`. */
    kind: text('kind').notNull(),
    /** The socket's `conn_` id, for the socket kinds. */
    connectionId: text('connection_id'),
    at: timestamp('at').notNull(),
    clockAt: timestamp('clock_at').notNull(),
    data: text('data').notNull(),
  },
  (t) => [index('recording_entries_recording_idx').on(t.recordingId, t.id)],
);
