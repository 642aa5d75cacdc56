import { sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns.js';

/** Keys the server generates once (token signing keys) and keeps across restarts. */
export const serverSecrets = sqliteTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at').notNull(),
});
