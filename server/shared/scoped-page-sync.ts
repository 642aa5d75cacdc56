// During the move to the asynchronous store only: what has not moved yet imports these; scoped-page.ts has the new ones.
import { desc, lt, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type EnvironmentScope, inScope } from '../../db/scope.js';
import type { Executor } from '../context.js';
import { decodeCursor, toPage } from './pagination.js';

type PagedTable = SQLiteTable & { id: SQLiteColumn; projectId: SQLiteColumn; environment: SQLiteColumn };

/**
 * One page, newest first, of an environment-scoped table whose ids sort in creation order: the
 * rows before the cursor, within the scope and the extra conditions. The list routes of rooms, live
 * streams, conversations and the observability logs all page this way.
 */
export function newestFirstPage<T extends PagedTable>(
  db: Executor,
  table: T,
  scope: EnvironmentScope,
  query: { limit: number; cursor?: string },
  ...conditions: (SQL | undefined)[]
): { rows: T['$inferSelect'][]; nextCursor: string | null } {
  const before = decodeCursor(query.cursor);
  const rows = db
    .select()
    .from(table as SQLiteTable)
    .where(inScope(table, scope, before ? lt(table.id, before) : undefined, ...conditions))
    .orderBy(desc(table.id))
    .limit(query.limit + 1)
    .all() as (T['$inferSelect'] & { id: string })[];
  return toPage(rows, query.limit);
}

/**
 * Deletes all but the newest `keep` rows of the scope, for a log kept to a size (errors, telemetry): ids sort in
 * creation order, so the newest are the highest.
 */
export function keepNewest(db: Executor, table: PagedTable, scope: EnvironmentScope, keep: number): void {
  const oldestKept = db
    .select({ id: table.id })
    .from(table as SQLiteTable)
    .where(inScope(table, scope))
    .orderBy(desc(table.id))
    .limit(1)
    .offset(keep - 1)
    .get() as { id: string } | undefined;
  if (oldestKept)
    db.delete(table)
      .where(inScope(table, scope, lt(table.id, oldestKept.id)))
      .run();
}
