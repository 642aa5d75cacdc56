/**
 * What a database error means to a client, whichever store raised it: the server answers `conflict` with 409
 * (a unique index or a check caught a race the service's own check missed), and `busy` and `unavailable` with 503
 * and Retry-After. Undefined for anything else, which is a bug of ours.
 */
export type StoreFailure = 'conflict' | 'busy' | 'unavailable';

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
  if (code === '40001' || code === '40P01' || code.startsWith('53')) return 'busy';
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return 'unavailable';
  if (CONNECTION_CODES.has(code)) return 'unavailable';
  return undefined;
}
