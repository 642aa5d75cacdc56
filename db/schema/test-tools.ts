import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
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
