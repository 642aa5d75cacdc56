/**
 * Whether servers older than a migration may run on a database that has it: every migration of both folders says so
 * here, and test/db/migration-compatibility.test.ts fails on one that does not (so `npm run db:generate` is followed
 * by a line in each list). The server that applies a migration records this in the database (`schema_migrations`),
 * where an older server, which cannot know the migration, reads it at start (db/schema-history.ts).
 *
 * - `expand`: adds what older code does not use and cannot trip on: a table, an index, a column that is nullable or
 *   has a default. An older server runs on beside it, so a rolling upgrade is possible.
 * - `breaking`: anything else (a column dropped or renamed, a NOT NULL column without a default, a constraint that
 *   older code's writes may break, data rewritten into another shape). An older server refuses to start on the
 *   database, saying to upgrade it or to restore the backup taken before the upgrade; a release with one is upgraded
 *   by stopping every node first (docs/deployment.md, "Upgrading").
 *
 * The migrations before `schema_history` predate the rule (no server then read it); they are described as they are.
 */
export type MigrationCompatibility = 'expand' | 'breaking';

/** db/migrations (SQLite), by the journal's tag. */
export const sqliteMigrations: Record<string, MigrationCompatibility> = {
  '0000_foundation': 'expand',
  '0001_rooms': 'expand',
  '0002_chat': 'expand',
  '0003_webhooks': 'expand',
  '0004_live_streams': 'expand',
  '0005_attachments': 'expand',
  '0006_observability': 'expand',
  '0007_delivery_retention': 'expand',
  '0008_replies_only_parent_index': 'expand',
  '0009_delivery_resends': 'expand',
  '0010_list_and_lookup_indexes': 'expand',
  '0011_delivery_log_filters': 'expand',
  '0012_live_stream_conversation_index': 'expand',
  '0013_attachment_chunks': 'expand',
  '0014_delivery_leases': 'expand',
  '0015_connection_nodes': 'expand',
  '0016_test_tools': 'expand',
  // A unique index: an older server could try a second live stream in a room, which it now refuses.
  '0017_live_stream_room_unique': 'breaking',
  '0018_schema_history': 'expand',
  '0019_delivery_trace_parent': 'expand',
  '0020_webhook_secret_key_id': 'expand',
  '0021_environment_snapshots': 'expand',
  '0022_recordings': 'expand',
  '0023_connection_media': 'expand',
};

/** db/postgres-migrations (PostgreSQL), by the journal's tag. */
export const postgresMigrations: Record<string, MigrationCompatibility> = {
  '0000_foundation': 'expand',
  '0001_live_stream_conversation_index': 'expand',
  '0002_attachment_chunks': 'expand',
  '0003_delivery_leases': 'expand',
  '0004_connection_nodes': 'expand',
  '0005_test_tools': 'expand',
  '0006_live_stream_room_unique': 'breaking',
  '0007_schema_history': 'expand',
  '0008_delivery_trace_parent': 'expand',
  '0009_webhook_secret_key_id': 'expand',
  '0010_environment_snapshots': 'expand',
  '0011_recordings': 'expand',
  '0012_connection_media': 'expand',
};
