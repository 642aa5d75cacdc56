import { desc, lt, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type EnvironmentScope, inScope } from './scope.js';
import type { Queries } from './store.js';

/** An environment-scoped table whose ids sort in creation order. */
export type PagedTable = SQLiteTable & { id: SQLiteColumn; projectId: SQLiteColumn; environment: SQLiteColumn };

/**
 * Up to `count` rows of the scope, newest first, whose ids are below `before` (when given) and that meet the extra
 * conditions.
 */
export async function newestFirst<T extends PagedTable>(
  db: Queries,
  table: T,
  scope: EnvironmentScope,
  { count, before }: { count: number; before: string | undefined },
  conditions: (SQL | undefined)[],
): Promise<(T['$inferSelect'] & { id: string })[]> {
  return (await db
    .select()
    .from(table as SQLiteTable)
    .where(inScope(table, scope, before ? lt(table.id, before) : undefined, ...conditions))
    .orderBy(desc(table.id))
    .limit(count)) as (T['$inferSelect'] & { id: string })[];
}

/**
 * Deletes all but the newest `keep` rows of the scope, for a log kept to a size (errors, telemetry): ids sort in
 * creation order, so the newest are the highest. Call it inside a transaction.
 */
export async function keepNewest(db: Queries, table: PagedTable, scope: EnvironmentScope, keep: number): Promise<void> {
  const [oldestKept] = (await db
    .select({ id: table.id })
    .from(table as SQLiteTable)
    .where(inScope(table, scope))
    .orderBy(desc(table.id))
    .limit(1)
    .offset(keep - 1)) as { id: string }[];
  if (oldestKept) await db.delete(table).where(inScope(table, scope, lt(table.id, oldestKept.id)));
}
