import type BetterSqlite3 from 'better-sqlite3';
import Database from '../../db/sqlite-driver.js';

export interface ExecutedStatement {
  sql: string;
  params: unknown[];
}

const EXECUTING = new Set<string | symbol>(['all', 'get', 'run', 'iterate']);

/**
 * Records every statement that better-sqlite3 executes in this test process while `during` runs, with
 * its parameters: the in-process server's queries included, cached statements too. Install it before
 * the server starts (its statement cache keeps what `prepare` handed out); each test file runs in its
 * own process, so the patch stays in the file that installs it.
 */
export function installStatementRecorder() {
  let runs: ExecutedStatement[] | undefined;
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: BetterSqlite3.Database, source: string) {
    const statement = prepare.call(this, source);
    // better-sqlite3's methods need the real statement as `this`; modes (`raw()`…) answer it, so answer the proxy.
    const proxy: BetterSqlite3.Statement = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (runs && EXECUTING.has(property)) runs.push({ sql: source, params: args });
          const result = value.apply(target, args);
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  } as typeof prepare;

  return {
    /** The statements executed while `during` ran (and awaited). */
    async record(during: () => unknown): Promise<ExecutedStatement[]> {
      const recorded: ExecutedStatement[] = [];
      runs = recorded;
      try {
        await during();
      } finally {
        runs = undefined;
      }
      return recorded;
    },
  };
}

/** `EXPLAIN QUERY PLAN` of an executed statement, one line per plan step, on another connection to the file. */
export function queryPlan(databaseFile: string, statement: ExecutedStatement): string[] {
  const db = new Database(databaseFile, { readonly: true });
  try {
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.params) as { detail: string }[];
    return rows.map((row) => row.detail);
  } finally {
    db.close();
  }
}
