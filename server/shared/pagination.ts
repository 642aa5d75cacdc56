import * as z from 'zod';
import { onFirstUse } from '../../db/prepare-on-first-use.js';
import { validationFailed } from '../errors.js';

import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './page-size.js';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE };

// Getters rather than `z.lazy`: an API document's query parameter takes its description from the field's own schema,
// which a lazy's wrapper does not have. Built with the first query that reads them (queries are `z.lazy`).
export const limitSchema = onFirstUse(() =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .optional()
    .default(DEFAULT_PAGE_SIZE)
    .meta({ description: `Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` }),
);

export const cursorSchema = onFirstUse(() =>
  z.string().max(200).optional().meta({ description: 'Opaque cursor: the `nextCursor` of the previous page.' }),
);

/** The query of a route that lists one page and takes nothing else. */
export const pageQuery = z.lazy(() => z.strictObject({ limit: limitSchema(), cursor: cursorSchema() }));

/**
 * Cursors are opaque to clients (so their content can change) but are only an id inside, which
 * works because ids sort in creation order.
 */
export function encodeCursor(id: string): string {
  return Buffer.from(JSON.stringify({ id }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { id?: unknown };
    if (typeof value.id === 'string') return value.id;
  } catch {
    // fall through to the error below
  }
  throw validationFailed('cursor: not a cursor returned by this API');
}

/** Given `limit + 1` rows, the page and the cursor of the next one (null at the end). */
export function toPage<T extends { id: string }>(rows: T[], limit: number): { rows: T[]; nextCursor: string | null } {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  return { rows: page, nextCursor: hasMore ? encodeCursor(page[page.length - 1].id) : null };
}
