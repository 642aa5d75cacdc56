import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns.js';
import { environmentScoped } from './environment-scoped.js';

export const rooms = sqliteTable(
  'rooms',
  {
    id: text('id').primaryKey(),
    ...environmentScoped(),
    /** Unique within a project environment; the same name may exist in another environment. */
    name: text('name').notNull(),
    /** Null: no limit beyond what a mesh can carry. */
    maxParticipants: integer('max_participants'),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('rooms_scope_name_idx').on(t.projectId, t.environment, t.name),
    index('rooms_scope_id_idx').on(t.projectId, t.environment, t.id),
  ],
);
