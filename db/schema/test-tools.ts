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
