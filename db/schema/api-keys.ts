import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns.js';
import { environmentScoped } from './environment-scoped.js';

/** The secret half is never stored: only its SHA-256, compared in constant time. */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    ...environmentScoped(),
    name: text('name').notNull(),
    /** The public half of the key text; the lookup handle during authentication. */
    publicId: text('public_id').notNull().unique(),
    secretHash: text('secret_hash').notNull(),
    createdById: text('created_by_id'),
    createdAt: timestamp('created_at').notNull(),
    lastUsedAt: timestamp('last_used_at'),
    revokedAt: timestamp('revoked_at'),
  },
  (t) => [index('api_keys_scope_idx').on(t.projectId, t.environment)],
);
