import { getTableName, is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type DatabaseFiles, openDatabase } from './connection.js';
import * as schema from './schema/index.js';
import type { Queries } from './store.js';

/** Rows a single insert carries: well under PostgreSQL's 65,535 parameters for the widest table. */
const ROWS_PER_INSERT = 500;

/** Every table of the description, each after the tables its foreign keys point at. */
export function tablesInDependencyOrder(): SQLiteTable[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable));
  const ordered: SQLiteTable[] = [];
  const placed = new Set<string>();
  const place = (table: SQLiteTable) => {
    const name = getTableName(table);
    if (placed.has(name)) return;
    placed.add(name);
    for (const key of getTableConfig(table).foreignKeys) {
      const target = key.reference().foreignTable as SQLiteTable;
      if (getTableName(target) !== name) place(target);
    }
    ordered.push(table);
  };
  for (const table of tables) place(table);
  return ordered;
}

/**
 * Copies the SQLite database in `dataDir` (an unpacked archive's, brought up to this build's schema first) into the
 * store of `tx`, table by table in dependency order, every column as drizzle reads and writes it. `skip` names
 * tables left out; `transform` may change a table's rows on the way (e.g. to seal secrets with another key).
 */
export async function copySqliteInto(
  tx: Queries,
  dataDir: string,
  files: DatabaseFiles,
  options: {
    skip?: SQLiteTable[];
    transform?: (table: SQLiteTable, row: Record<string, unknown>) => Record<string, unknown>;
  } = {},
): Promise<Map<string, number>> {
  const source = openDatabase(dataDir, files);
  const copied = new Map<string, number>();
  try {
    for (const table of tablesInDependencyOrder()) {
      if (options.skip?.includes(table)) continue;
      const rows = source.select().from(table).all() as Record<string, unknown>[];
      const changed = options.transform ? rows.map((row) => options.transform?.(table, row) ?? row) : rows;
      for (let start = 0; start < changed.length; start += ROWS_PER_INSERT)
        await tx.insert(table).values(changed.slice(start, start + ROWS_PER_INSERT) as never);
      copied.set(getTableName(table), rows.length);
    }
  } finally {
    source.$client.close();
  }
  return copied;
}

/** Whether the store of `db` holds any row of `table`. */
export async function holdsRows(db: Queries, table: SQLiteTable): Promise<boolean> {
  const rows = await db.select().from(table).limit(1);
  return rows.length > 0;
}

/**
 * The reverse of `copySqliteInto`: copies every table of the store (read through `tx`, one consistent view) into a
 * new SQLite database in `dataDir`, as an archive of a server on PostgreSQL holds it. Answers the rows copied.
 */
export async function copyIntoSqlite(
  tx: Queries,
  dataDir: string,
  files: DatabaseFiles,
  options: {
    skip?: SQLiteTable[];
    transform?: (table: SQLiteTable, row: Record<string, unknown>) => Record<string, unknown>;
  } = {},
): Promise<Map<string, number>> {
  const target = openDatabase(dataDir, files);
  const copied = new Map<string, number>();
  try {
    const tables: { table: SQLiteTable; rows: Record<string, unknown>[] }[] = [];
    for (const table of tablesInDependencyOrder()) {
      if (options.skip?.includes(table)) continue;
      const rows = (await tx.select().from(table)) as Record<string, unknown>[];
      tables.push({
        table,
        rows: options.transform ? rows.map((row) => options.transform?.(table, row) ?? row) : rows,
      });
    }
    target.transaction((sqlite) => {
      for (const { table, rows } of tables) {
        for (let start = 0; start < rows.length; start += ROWS_PER_INSERT)
          sqlite
            .insert(table)
            .values(rows.slice(start, start + ROWS_PER_INSERT) as never)
            .run();
        copied.set(getTableName(table), rows.length);
      }
    });
    // One self-contained file: no -wal beside it.
    target.$client.pragma('journal_mode = DELETE');
  } finally {
    target.$client.close();
  }
  return copied;
}
