import type { SQL } from 'drizzle-orm';
import { newestFirst, type PagedTable } from '../../db/pages.js';
import type { EnvironmentScope } from '../../db/scope.js';
import type { Queries } from '../../db/store.js';
import { decodeCursor, toPage } from './pagination.js';

export { keepNewest } from '../../db/pages.js';

/**
 * One page, newest first, of an environment-scoped table whose ids sort in creation order: the
 * rows before the cursor, within the scope and the extra conditions. The list routes of rooms, live
 * streams, conversations and the observability logs all page this way.
 */
export async function newestFirstPage<T extends PagedTable>(
  db: Queries,
  table: T,
  scope: EnvironmentScope,
  query: { limit: number; cursor?: string },
  ...conditions: (SQL | undefined)[]
): Promise<{ rows: (T['$inferSelect'] & { id: string })[]; nextCursor: string | null }> {
  const rows = await newestFirst(
    db,
    table,
    scope,
    { count: query.limit + 1, before: decodeCursor(query.cursor) },
    conditions,
  );
  return toPage(rows, query.limit);
}
