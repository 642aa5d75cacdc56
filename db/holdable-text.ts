import { getTableColumns, getTableName } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Dialect } from './store.js';

/**
 * What each store's text can hold. SQLite's holds any string; PostgreSQL's `text` holds no U+0000 (NUL), and a value
 * with one fails the whole statement (22021). The API refuses NUL in every input on both stores
 * (server/http/text-rules.ts), but a SQLite data folder written before that rule, or its archive, may hold some: an
 * import into PostgreSQL writes each as U+FFFD (the replacement character) and counts them by column, so that the
 * import succeeds and its report says what changed. JSON columns are text whose NULs are escaped (`\u0000`), which
 * PostgreSQL holds as they are.
 */
export const NUL_REPLACEMENT = '\uFFFD';

/** Values changed for the target's sake, by `table.column`. */
export type ReplacedValues = Map<string, number>;

/** Changes a row of `table` so that a store of `dialect` can hold it, counting what changed into `replaced`. */
export function holdableRow(
  dialect: Dialect,
  table: SQLiteTable,
  row: Record<string, unknown>,
  replaced: ReplacedValues,
): Record<string, unknown> {
  if (dialect !== 'postgres') return row;
  let holdable: Record<string, unknown> | undefined;
  for (const key in row) {
    const value = row[key];
    if (typeof value !== 'string' || !value.includes('\0')) continue;
    holdable ??= { ...row };
    holdable[key] = value.replaceAll('\0', NUL_REPLACEMENT);
    const column = `${getTableName(table)}.${getTableColumns(table)[key]?.name ?? key}`;
    replaced.set(column, (replaced.get(column) ?? 0) + 1);
  }
  return holdable ?? row;
}

/** `3 values held a NUL character (U+0000), … replaced by U+FFFD: messages.text 2, rooms.name 1` (columns by name). */
export function describeReplaced(replaced: ReplacedValues): string | undefined {
  if (replaced.size === 0) return undefined;
  const total = [...replaced.values()].reduce((sum, n) => sum + n, 0);
  const columns = [...replaced]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([column, n]) => `${column} ${n}`)
    .join(', ');
  return `${total} value${total === 1 ? '' : 's'} held a NUL character (U+0000), which PostgreSQL cannot store, replaced by U+FFFD: ${columns}`;
}
