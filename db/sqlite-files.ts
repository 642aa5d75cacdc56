import type Database from 'better-sqlite3';

/**
 * A SQLite database file opened on its own (not the running server's store): a data folder no server is using, a
 * snapshot's copy, an archive being checked. What the data archive needs of such a file is here, so that SQL written
 * for SQLite stays in db/.
 */
export type SqliteFile = Database.Database;

/** Rows of `table` in the file; 0 when the file has no such table (a database never migrated). */
export function countRows(sqlite: SqliteFile, table: 'users' | 'projects'): number {
  const exists = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  return exists ? (sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n : 0;
}

/** Copies a live database into `file` with SQLite's online backup: consistent, while its server keeps writing. */
export function backupTo(sqlite: SqliteFile, file: string): Promise<unknown> {
  return sqlite.backup(file);
}

/** Makes the file self-contained: no -wal beside it. */
export function withoutWriteAheadLog(sqlite: SqliteFile): void {
  sqlite.pragma('journal_mode = DELETE');
}

/** The attachments whose bytes are stored (uploaded or completed). */
export function storedAttachments(sqlite: SqliteFile): { id: string; projectId: string }[] {
  return sqlite
    .prepare("SELECT id, project_id AS projectId FROM attachments WHERE status IN ('UPLOADED', 'COMPLETED')")
    .all() as { id: string; projectId: string }[];
}

/** Deletes these attachments' rows, in one transaction. */
export function deleteAttachments(sqlite: SqliteFile, ids: string[]): void {
  const drop = sqlite.prepare('DELETE FROM attachments WHERE id = ?');
  sqlite.transaction(() => {
    for (const id of ids) drop.run(id);
  })();
}
