import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns.js';
import { environmentScoped } from './environment-scoped.js';

/** Client-side events sent by SDKs with their RTC token; tagged from the token's claims. */
export const telemetryEvents = sqliteTable(
  'telemetry_events',
  {
    id: text('id').primaryKey(),
    ...environmentScoped(),
    /** No foreign key: telemetry about a room outlives the room. */
    roomId: text('room_id').notNull(),
    identity: text('identity').notNull(),
    type: text('type').notNull(),
    /** When the client says it happened; defaults to the time received. */
    occurredAt: timestamp('occurred_at').notNull(),
    receivedAt: timestamp('received_at').notNull(),
    data: text('data', { mode: 'json' }).$type<Record<string, unknown>>(),
  },
  (t) => [index('telemetry_scope_idx').on(t.projectId, t.environment, t.id)],
);
