import { getTableColumns, is, Param, Placeholder, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';

/** What can build an insert: a database of either dialect (both take the description's tables). */
interface InsertBuilder {
  insert(table: never): { values(values: never): { toSQL(): { sql: string; params: unknown[] } } };
}

/**
 * An insert of one whole row, written once: its SQL (in the dialect of `db`) and how to turn a row, whose fields
 * name its columns, into the statement's values. For tables written hundreds of times a second (messages, webhook
 * deliveries and attempts), run straight on the driver's prepared statement.
 *
 * Drizzle writes the SQL and supplies each column's encoder (JSON text, booleans as integers); the row is then bound
 * straight to the statement. Drizzle's own prepared `run` checks the class of every parameter on every call, ≈30,000
 * instructions per message POST on SQLite (callgrind), for the same values in the same order.
 */
export function insertTemplate<T extends SQLiteTable>(db: InsertBuilder, table: T) {
  const placeholders = Object.fromEntries(
    Object.keys(getTableColumns(table)).map((key) => [key, sql.placeholder(key)]),
  );
  const query = db
    .insert(table as never)
    .values(placeholders as never)
    .toSQL();
  const parameters = query.params.map((param) => {
    if (!is(param, Param) || !is(param.value, Placeholder)) {
      throw new Error(`insertTemplate: unexpected parameter in ${query.sql}`);
    }
    return { key: param.value.name, encoder: param.encoder };
  });
  return {
    sql: query.sql,
    values(row: T['$inferSelect']): unknown[] {
      const fields = row as Record<string, unknown>;
      // NULL stays NULL, as drizzle's own inserts leave it: a JSON column's encoder would store the text `null`.
      return parameters.map(({ key, encoder }) => (fields[key] == null ? null : encoder.mapToDriverValue(fields[key])));
    },
  };
}
