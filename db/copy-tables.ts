import { getTableName, is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type DatabaseFiles, openDatabase } from './connection.js';
import { holdableRow, type ReplacedValues } from './holdable-text.js';
import * as schema from './schema/index.js';
import type { Dialect, Queries } from './store.js';

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

/** What a copy leaves out (`skip`) and how it may change a table's rows on the way (e.g. to seal secrets again). */
export interface CopyOptions {
  skip?: SQLiteTable[];
  transform?: (table: SQLiteTable, row: Record<string, unknown>) => Record<string, unknown>;
}

/** The tables a copy takes, in dependency order, each with how to read its rows and change them. */
async function* tablesToCopy(
  options: CopyOptions,
  read: (table: SQLiteTable) => Promise<Record<string, unknown>[]> | Record<string, unknown>[],
) {
  for (const table of tablesInDependencyOrder()) {
    if (options.skip?.includes(table)) continue;
    const rows = await read(table);
    yield { table, rows: options.transform ? rows.map((row) => options.transform?.(table, row) ?? row) : rows };
  }
}

/** The rows in slices that one insert each can carry. */
function* batches<T>(rows: T[]): Generator<T[]> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) yield rows.slice(start, start + ROWS_PER_INSERT);
}

/** What a copy did: the rows copied per table, and the values changed so that the target could hold them. */
export interface CopyReport {
  copied: Map<string, number>;
  /** By `table.column`: text values with a NUL, which PostgreSQL cannot hold (see db/holdable-text.ts). */
  replaced: ReplacedValues;
}

/**
 * Copies the SQLite database in `dataDir` (an unpacked archive's, brought up to this build's schema first) into the
 * store of `tx` (whose dialect is `target`), table by table in dependency order, every column as drizzle reads and
 * writes it, each row made holdable by the target (PostgreSQL: U+0000 becomes U+FFFD).
 */
export async function copySqliteInto(
  tx: Queries,
  target: Dialect,
  dataDir: string,
  files: DatabaseFiles,
  options: CopyOptions = {},
): Promise<CopyReport> {
  const source = openDatabase(dataDir, files);
  const report: CopyReport = { copied: new Map(), replaced: new Map() };
  try {
    for await (const { table, rows } of tablesToCopy(options, (table) => source.select().from(table).all())) {
      const holdable = rows.map((row) => holdableRow(target, table, row, report.replaced));
      for (const batch of batches(holdable)) await tx.insert(table).values(batch as never);
      report.copied.set(getTableName(table), rows.length);
    }
  } finally {
    source.$client.close();
  }
  return report;
}

/**
 * The reverse of `copySqliteInto`: copies every table of the store (read through `tx`, one consistent view) into a
 * new SQLite database in `dataDir`, as an archive of a server on PostgreSQL holds it. Answers the rows copied.
 */
export async function copyIntoSqlite(
  tx: Queries,
  dataDir: string,
  files: DatabaseFiles,
  options: CopyOptions = {},
): Promise<Map<string, number>> {
  const target = openDatabase(dataDir, files);
  const copied = new Map<string, number>();
  try {
    // Read first (the store is asynchronous), then written in one synchronous SQLite transaction.
    const tables: { table: SQLiteTable; rows: Record<string, unknown>[] }[] = [];
    for await (const table of tablesToCopy(options, (table) => tx.select().from(table))) tables.push(table);
    target.transaction((sqlite) => {
      for (const { table, rows } of tables) {
        for (const batch of batches(rows))
          sqlite
            .insert(table)
            .values(batch as never)
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
