import { getTableColumns, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './connection.js';

/**
 * An insert of one whole row, prepared once: run it with the row, whose fields name its columns. For tables written
 * hundreds of times a second, where drizzle would otherwise build the same INSERT again for every row.
 */
export function preparedInsert<T extends SQLiteTable>(db: Db, table: T) {
  const values = Object.fromEntries(Object.keys(getTableColumns(table)).map((key) => [key, sql.placeholder(key)]));
  const statement = db
    .insert(table)
    .values(values as T['$inferInsert'])
    .prepare();
  return { run: (row: T['$inferSelect']) => statement.run(row) };
}
