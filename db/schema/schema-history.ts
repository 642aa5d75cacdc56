import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns.js';

/**
 * Every migration applied to this database, as the servers that ran on it recorded it (db/schema-history.ts): what a
 * server older than a migration reads to know whether it may run on the database (docs/architecture.md, "Upgrades").
 * It describes the database it is in, not the data: copies between stores (the data archive) leave it out.
 */
export const schemaMigrations = sqliteTable('schema_migrations', {
  /** The migration's name in its folder's journal, e.g. `0018_schema_history`. */
  tag: text('tag').primaryKey(),
  /** Its journal's `when`: drizzle's `created_at` of it, which orders migrations. */
  createdAt: timestamp('created_at').notNull(),
  /** `expand` (older servers run on a database that has it) or `breaking` (they refuse to start): db/migration-compatibility.ts. */
  compatibility: text('compatibility', { enum: ['expand', 'breaking'] }).notNull(),
  /** The version of the first server that ran on the database with it applied: the one that applied it, or for the migrations before this table, the first that recorded them. */
  firstServerVersion: text('first_server_version').notNull(),
  recordedAt: timestamp('recorded_at').notNull(),
});

/** Each server version that ran on this database, with the newest migration its code knows (versions between releases share a number). */
export const serverVersions = sqliteTable(
  'server_versions',
  {
    version: text('version').notNull(),
    /** The tag of the newest migration of its code. */
    schema: text('schema').notNull(),
    firstStartedAt: timestamp('first_started_at').notNull(),
    lastStartedAt: timestamp('last_started_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.version, t.schema] })],
);
