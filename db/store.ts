import type { BaseSQLiteDatabase, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Claim, Claimer } from './claim.js';
import type { SchemaStanding } from './schema-history.js';

export type Dialect = 'sqlite' | 'postgres';

/**
 * What services query with, on either store: drizzle's query builders over the one description of the tables
 * (db/schema, written with SQLite's column types; the PostgreSQL tables are generated from it). Every query is
 * awaited (`await db.select()…`, `const [row] = await …limit(1)`, `…returning()`); the SQLite-only finishers
 * `.get()`, `.all()`, `.run()` and `.values()` do not exist on PostgreSQL and are refused by a test
 * (test/unit/layering.test.ts). Prepared statements run with `.execute(values)`.
 */
export type Queries = BaseSQLiteDatabase<'async', unknown>;

/**
 * A whole-row insert prepared once, for the tables written hundreds of times a second. Inside a transaction it is part
 * of it; outside one it is a write of its own, atomic as any single statement, and costs no BEGIN and COMMIT (on
 * PostgreSQL two round trips of the three a lone insert in a transaction takes).
 */
export type RowInsert<T extends SQLiteTable> = (row: T['$inferSelect']) => Promise<void>;

/**
 * The database, whichever it is: SQLite in the data folder (the default) or PostgreSQL (`--database-url`).
 *
 * Every write happens in `transaction` (or is a lone `rowInsert`: one statement): atomic, and serialisable on both
 * stores (SQLite has one writer; PostgreSQL runs it at SERIALIZABLE and runs it again when PostgreSQL says it
 * conflicted with another, so `work` must have no effect outside the database before it returns: emit events after). A `transaction` inside another joins it.
 * `db` outside a transaction reads what is committed; inside one, it is that transaction.
 */
export type ServerSlotKind = 'alone' | 'beside-others';

export interface ServerSlot {
  release(): Promise<void>;
}

/** What the store's connections are doing now (metrics): on SQLite its one writer, on PostgreSQL its pool. */
export interface StoreConnections {
  /** Connections that may be open at most. */
  max: number;
  /** Open now. */
  open: number;
  /** Running a query or a transaction now. */
  busy: number;
  /** Callers waiting for one. */
  waiting: number;
}

/** Told when a transaction ends: how long it took, from the call (its wait for a connection included) to its end. */
export type TransactionObserver = (seconds: number, committed: boolean) => void;

export interface Store {
  readonly dialect: Dialect;
  readonly db: Queries;
  /** The database's migrations newer than this server's code, when it runs beside a newer server (db/schema-history.ts). */
  readonly schema: SchemaStanding;
  transaction<T>(work: (tx: Queries) => Promise<T>): Promise<T>;
  /** Whether the caller runs inside a transaction of this store. */
  inTransaction(): boolean;
  /** `insert(table).values(row)` prepared once (on SQLite bound straight to the statement, on PostgreSQL named). */
  rowInsert<T extends SQLiteTable>(table: T): RowInsert<T>;
  /**
   * `insert(table).values(rows)`: one statement, so atomic without a transaction around it (on PostgreSQL, one round
   * trip rather than four with BEGIN and COMMIT). Inside a transaction it joins it.
   */
  insertRows<T extends SQLiteTable>(table: T, rows: T['$inferInsert'][]): Promise<void>;
  /**
   * Inserts many whole rows (every column given, as a select read them) in the transaction under way, or in one of
   * their own: for copying thousands of rows back (a snapshot's restore). The statement is written once per table, not
   * built by drizzle per batch, which cost more than the database's work (≈20 ms of JavaScript per 500 messages): on
   * SQLite one prepared insert run per row, on PostgreSQL multi-row inserts of up to 1,000 rows.
   */
  copyRows<T extends SQLiteTable>(table: T, rows: T['$inferSelect'][]): Promise<void>;
  /**
   * A claim of rows of a work queue (see `Claim`), prepared once: each run takes rows for this server and answers them
   * as updated. A row is taken by one claim only, on every server on the database, and a group never holds more than
   * the claim's `limit`. On PostgreSQL, a short READ COMMITTED transaction: `pg_advisory_xact_lock` on the group (its
   * claims take turns across servers, so each counts what the others took), then `UPDATE … WHERE key IN (SELECT …
   * FOR UPDATE SKIP LOCKED) RETURNING *`. On SQLite, the same in a transaction of the one writer, without the locks
   * (one server per database).
   */
  claimer<T extends SQLiteTable>(table: T, claim: Claim<T>): Claimer<T>;
  /** How many bytes the database takes (SQLite: its file and write-ahead log; PostgreSQL: the database). */
  sizeBytes(): Promise<number>;
  /** Answers when the database answers a trivial query; throws otherwise (`/readyz`). */
  ping(): Promise<void>;
  /** What its connections are doing now. */
  connections(): StoreConnections;
  /**
   * Tells `observer` about every transaction from now on (not those joined inside another: they are part of it);
   * undefined stops. One observer at a time: the server's metrics.
   */
  observeTransactions(observer: TransactionObserver | undefined): void;
  /**
   * Takes this server's place among the servers on the database, for as long as it runs (or until `release`):
   * `alone` when no other may run beside it, `beside-others` when others may (they share a bus); false when
   * refused (an `alone` server holds it, or any server for `alone`). SQLite's data folder lock already makes every
   * server there alone: always true.
   */
  takeServerSlot(kind: ServerSlotKind): Promise<ServerSlot | false>;
  close(): Promise<void>;
}
