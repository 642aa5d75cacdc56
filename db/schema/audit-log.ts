import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns.js';
import { ENVIRONMENTS } from './environment.js';
import { projects } from './projects.js';

/** Append-only: no code path updates or deletes a row (deleting the project drops its log). */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    actorType: text('actor_type', { enum: ['user', 'api_key', 'system'] }).notNull(),
    actorId: text('actor_id'),
    /** Snapshot of the actor's email at the time, so the entry still reads right later. */
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    environment: text('environment', { enum: ENVIRONMENTS }),
    /** JSON object with the details of the change (e.g. old and new role). */
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [index('audit_log_project_idx').on(t.projectId, t.id)],
);
