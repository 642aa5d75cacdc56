/**
 * What a database error means to a client, whichever store raised it: the server answers `conflict` with 409
 * (a unique index or a check caught a race the service's own check missed), `busy` and `unavailable` with 503
 * and Retry-After, and `unstorable-text` with 400 (see below). Undefined for anything else, which is a bug of ours.
 */
export type StoreFailure = 'conflict' | 'busy' | 'unavailable' | 'unstorable-text';

/**
 * PostgreSQL's refusals of a text value itself, which SQLite stores as it is: 22021 (invalid byte sequence, which is
 * what U+0000 in a `text` parameter raises), 22P05 (untranslatable character) and 22001 (too long for its column;
 * none of ours has a length, but a value could still pass one). Input is checked before it gets here
 * (server/http/text-rules.ts refuses NUL): this is the last line of defence, a client's 400 rather than a 500,
 * logged with its query so that the check it slipped past can be added.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05', '22001']);

/** Node's codes for a connection that could not be made or was cut. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

export function classifyStoreError(err: unknown): StoreFailure | undefined {
  for (let cause = err; cause instanceof Error; cause = cause.cause) {
    const failure = classifyOne(cause);
    if (failure) return failure;
  }
  return undefined;
}

function classifyOne(err: Error): StoreFailure | undefined {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') {
    // pg's words for a connection that ended under a query, or a pool that could not get one in time.
    if (/Connection terminated|connection timeout|Client has encountered a connection error/i.test(err.message))
      return 'unavailable';
    return undefined;
  }
  // SQLite (better-sqlite3's codes)
  if (code.startsWith('SQLITE_CONSTRAINT')) return 'conflict';
  if (code === 'SQLITE_BUSY') return 'busy';
  // PostgreSQL SQLSTATEs: class 23 integrity constraint violation; 40001/40P01 left after the store's own retries;
  // 53 insufficient resources; 08 connection exception; 57P01-57P03 the server shutting down or starting.
  if (code.startsWith('23')) return 'conflict';
  if (UNSTORABLE_TEXT_CODES.has(code)) return 'unstorable-text';
  if (code === '40001' || code === '40P01' || code.startsWith('53')) return 'busy';
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return 'unavailable';
  if (CONNECTION_CODES.has(code)) return 'unavailable';
  return undefined;
}

/** What the log may say about a failed database query: its SQL and the driver's code and words, never its values. */
export interface FailedQuery {
  query?: string;
  code?: string;
  message: string;
  /** Where it was raised: the stack's frames, without the message above them (which holds the values). */
  stack?: string;
}

/**
 * The failed query in `err`, if a database raised it: drizzle wraps the driver's error in one that carries the SQL
 * (`query`) and its parameters (`params`, also in its message), which may be secrets (token hashes, key text) and are
 * left out; the driver's own error (pg's, with a SQLSTATE `code`; better-sqlite3's, `SQLITE_…`) gives the code and
 * message. Undefined for an error that is no database's.
 */
export function failedQuery(err: unknown): FailedQuery | undefined {
  let query: string | undefined;
  let driver: Error | undefined;
  for (let cause = err; cause instanceof Error; cause = cause.cause) {
    const e = cause as { query?: unknown; code?: unknown; severity?: unknown };
    if (query === undefined && typeof e.query === 'string') query = e.query;
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code?.startsWith('SQLITE_') || (code && typeof e.severity === 'string')) driver = cause;
  }
  if (query === undefined && !driver) return undefined;
  const code = (driver as { code?: string } | undefined)?.code;
  const stack = err instanceof Error ? err.stack?.slice(err.stack.indexOf('\n    at ') + 1) : undefined;
  return { query, code, message: driver?.message ?? 'the query failed', stack };
}
