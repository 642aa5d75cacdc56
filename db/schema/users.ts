import { sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns.js';

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  /** Stored lower-cased so that lookups and uniqueness ignore letter case. */
  email: text('email').notNull().unique(),
  name: text('name'),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at').notNull(),
});
