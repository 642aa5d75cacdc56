import { type FieldProblem, validationFailed } from '../errors.js';

/**
 * What text a client may send: anything but U+0000 (NUL), in values and in object keys alike. PostgreSQL's `text`
 * cannot hold it (SQLite's can), so without this rule a NUL would be a 500 on one store and stored on the other;
 * refused where input is read (path parameters, queries, JSON bodies, socket messages, seed files), it is the same
 * 400 on both. Data written before the rule is another matter: an import into PostgreSQL replaces it (db/).
 */
export const NUL_REFUSED = 'must not contain a NUL character (U+0000)';
export const NUL_IN_KEY = 'field names must not contain a NUL character (U+0000)';

/** Where a NUL was found: the field's path (array items by index; empty: the value itself), and whether in its key. */
export interface NulFound {
  path: (string | number)[];
  inKey: boolean;
}

interface Frame {
  value: object;
  key: string | number;
  parent: Frame | undefined;
}

const pathOf = (frame: Frame, last: string | number): (string | number)[] => {
  const parts = [last];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) parts.push(f.key);
  return parts.reverse();
};

/**
 * The first string or object key in `value` (parsed JSON, or Express's parsed query) that holds a NUL. Iterative, so
 * that a deeply nested body cannot overflow the stack: a schema rejects such a body later, with a 400.
 */
export function findNul(value: unknown): NulFound | undefined {
  if (typeof value === 'string') return value.includes('\0') ? { path: [], inKey: false } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Frame[] = [{ value, key: '', parent: undefined }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const container = frame.value as Record<string, unknown>;
    const isArray = Array.isArray(container);
    for (const name in container) {
      const key = isArray ? Number(name) : name;
      if (!isArray && name.includes('\0')) return { path: pathOf(frame, key), inKey: true };
      const child = container[name];
      if (typeof child === 'string') {
        if (child.includes('\0')) return { path: pathOf(frame, key), inKey: false };
      } else if (typeof child === 'object' && child !== null) stack.push({ value: child, key, parent: frame });
    }
  }
  return undefined;
}

/** A NUL written `\u0000`, so that a log or a terminal shows it. */
export const showNul = (text: string) => text.replaceAll('\0', '\\u0000');

/** `members.0.role: must not contain …` (`whole` when the value itself holds the NUL). */
export function describeNul(found: NulFound, whole: string): string {
  return `${showNul(found.path.join('.')) || whole}: ${found.inKey ? NUL_IN_KEY : NUL_REFUSED}`;
}

const problemOf = (found: NulFound): FieldProblem => ({
  path: found.path.join('.'),
  message: found.inKey ? NUL_IN_KEY : NUL_REFUSED,
});

/** Throws 400 SERVICE_VALIDATION_FAILED naming the field (as server/http/validate.ts words it) if `value` holds a NUL. */
export function refuseNul(value: unknown, where: 'body' | 'query' | 'path'): void {
  const found = findNul(value);
  if (found) throw validationFailed(`Invalid request ${where}: ${describeNul(found, where)}.`, [problemOf(found)]);
}

/**
 * A request's path parameters and query, checked before authentication (which looks a project up by `{id}` and
 * reads `environment` from the query). A NUL reaches either only as `%00`: Node's HTTP parser refuses a raw one in
 * the URL (and in headers), and no other escape decodes to it, so a URL without `%00` costs one `includes`.
 */
export function refuseNulInUrl(req: { url: string; params: unknown; query: unknown }): void {
  if (!req.url.includes('%00')) return;
  refuseNul(req.params, 'path');
  refuseNul(req.query, 'query');
}
