import { count, inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable, SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import type { Queries } from './store.js';

/**
 * Rows of a work queue to take for this server, so that no other server takes them too (`Store.claimer`): those
 * `free` matches, first by `orderBy`, as many as the group has room for, each marked taken by `set` (its owner and
 * lease). Written once with placeholders (`sql.placeholder(name)`), whose values each claim gives.
 */
export interface Claim<T extends SQLiteTable> {
  /** The table's primary key. */
  key: SQLiteColumn;
  /** The rows free to take now. */
  free: SQL | undefined;
  orderBy: (SQLiteColumn | SQL)[];
  /** What marks a row taken; the rows are answered as updated. */
  set: SQLiteUpdateSetSource<T>;
  /** The most rows a group may hold at once: those `held` matches count against it. */
  limit: number;
  /** The rows the group holds already (taken and not given back). */
  held: SQL | undefined;
}

/**
 * A claim prepared once, run for one group with the values of its placeholders. The claims of one group run one after
 * another, on every server on the database, so that each counts what the others took.
 */
export type Claimer<T extends SQLiteTable> = (
  group: string,
  values: Record<string, unknown>,
) => Promise<T['$inferSelect'][]>;

/** How a dialect keeps two claims at once from reading the same rows: on PostgreSQL, FOR UPDATE SKIP LOCKED. */
export type LockRows = (select: SQLWrapper) => SQLWrapper;

/**
 * The two statements of a claim, on `db`: how many rows the group holds, then one `UPDATE … WHERE key IN (SELECT key
 * … WHERE free ORDER BY … LIMIT room) RETURNING *`, `room` a placeholder too. Run them in a transaction in which the
 * group's claims take turns (`runClaim`).
 */
export function claimStatements<T extends SQLiteTable>(
  db: Queries,
  table: T,
  claim: Claim<T>,
  lockRows: LockRows = (select) => select,
) {
  const free = db
    .select({ key: claim.key })
    .from(table)
    .where(claim.free)
    .orderBy(...claim.orderBy)
    .limit(sql.placeholder('room'));
  return {
    held: db.select({ held: count() }).from(table).where(claim.held),
    take: db
      .update(table)
      .set(claim.set)
      .where(inArray(claim.key, lockRows(free)))
      .returning(),
  };
}

/** A prepared statement, run with the values of its placeholders. */
interface Statement<R> {
  execute(values: Record<string, unknown>): Promise<R>;
}

/** The prepared statements of a claim, as `claimStatements` writes them. */
export interface ClaimStatements {
  held: Statement<{ held: number }[]>;
  take: Statement<unknown>;
}

/** Counts what the group holds, then takes as many as there is room for. */
export async function runClaim<T extends SQLiteTable>(
  statements: ClaimStatements,
  limit: number,
  values: Record<string, unknown>,
): Promise<T['$inferSelect'][]> {
  const [{ held }] = await statements.held.execute(values);
  const room = limit - held;
  if (room <= 0) return [];
  return (await statements.take.execute({ ...values, room })) as T['$inferSelect'][];
}
