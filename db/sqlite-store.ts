import { statSync } from 'node:fs';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type Claim, type Claimer, claimStatements, runClaim } from './claim.js';
import { DATABASE_FILE, type DatabaseFiles, type Db, latestAppliedMigration, openDatabase } from './connection.js';
import { sqliteMigrations } from './migration-compatibility.js';
import { knownMigrations } from './migration-journal.js';
import { onFirstUse } from './prepare-on-first-use.js';
import { insertTemplate } from './prepared-insert.js';
import { enterSchemaHistory, type SchemaStanding } from './schema-history.js';
import Database from './sqlite-driver.js';
import { cacheStatements } from './statement-cache.js';
import type { Queries, RowInsert, Store, TransactionObserver } from './store.js';
import { timedTransaction } from './timed-transaction.js';
import { transactionContext } from './transaction-context.js';

function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // e.g. no write-ahead log at this moment
  }
}

export interface SqliteStore extends Store {
  readonly dialect: 'sqlite';
  /** The one connection that writes; for what only SQLite has (online backups, the data archive). */
  readonly writer: Db;
}

/**
 * The embedded store: the database file in the data folder, on two connections. The writer runs every transaction,
 * one at a time (a transaction waits for the one before it; SQLite would refuse a second BEGIN on one connection,
 * and a second writing connection would wait on SQLite's lock instead). The reader answers reads outside
 * transactions: it is read-only, so a write outside a transaction fails loudly instead of slipping into whichever
 * transaction is open, and in WAL mode it sees only what is committed.
 *
 * A transaction on SQLite never waits for the network: its awaits are queries that better-sqlite3 runs at once, so it
 * finishes without letting other requests run in between, and stays as short as it was when it was synchronous.
 */
export async function openSqliteStore(
  dataDir: string,
  files: DatabaseFiles,
  serverVersion: string,
): Promise<SqliteStore> {
  const writer = openDatabase(dataDir, files);
  let schema: SchemaStanding;
  try {
    schema = await enterSchemaHistory(writer as unknown as Queries, {
      known: knownMigrations(files.migrationsFolder),
      compatibility: sqliteMigrations,
      appliedLatest: latestAppliedMigration(writer.$client),
      serverVersion,
      now: Date.now(),
    });
  } catch (err) {
    writer.$client.close();
    throw err;
  }
  /** The statements of `copyRows`, one per table, prepared on the writer when first used. */
  const copyStatements = new Map<
    SQLiteTable,
    { template: ReturnType<typeof insertTemplate>; statement: ReturnType<Db['$client']['prepare']> }
  >();
  const readerConnection = new Database(join(dataDir, DATABASE_FILE), {
    readonly: true,
    nativeBinding: files.nativeBinding,
  });
  readerConnection.pragma('busy_timeout = 5000');
  cacheStatements(readerConnection);
  const reader = drizzle(readerConnection) as unknown as Queries;
  const writing = writer as unknown as Queries;
  const context = transactionContext(reader);

  let busy = false;
  const waiting: (() => void)[] = [];
  async function acquire(): Promise<void> {
    if (!busy) {
      busy = true;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else busy = false;
  }

  let observer: TransactionObserver | undefined;
  async function transaction<T>(work: (tx: Queries) => Promise<T>): Promise<T> {
    const joined = context.current();
    if (joined) return work(joined);
    return timedTransaction(observer, () => runTransaction(work));
  }

  async function runTransaction<T>(work: (tx: Queries) => Promise<T>): Promise<T> {
    await acquire();
    try {
      writer.$client.exec('BEGIN IMMEDIATE');
      try {
        const result = await context.run(writing, () => work(writing));
        writer.$client.exec('COMMIT');
        return result;
      } catch (err) {
        if (writer.$client.inTransaction) writer.$client.exec('ROLLBACK');
        throw err;
      }
    } finally {
      release();
    }
  }

  return {
    dialect: 'sqlite',
    writer,
    schema,
    db: context.db,
    inTransaction: () => context.current() !== undefined,
    transaction,
    claimer<T extends SQLiteTable>(table: T, claim: Claim<T>): Claimer<T> {
      // Prepared on the writer, where every transaction runs; one at a time, so nothing counts or takes rows between
      // a claim's two statements, and its group needs no lock.
      const prepared = onFirstUse(() => {
        const statements = claimStatements(writing, table, claim);
        return { held: statements.held.prepare(), take: statements.take.prepare() };
      });
      return (_group, values) => transaction(() => runClaim<T>(prepared(), claim.limit, values));
    },
    async insertRows(table, rows) {
      // On the writer, after the transaction under way: a statement of its own is a transaction of its own here.
      await transaction(async (tx) => {
        await tx.insert(table).values(rows);
      });
    },
    async copyRows(table, rows) {
      let prepared = copyStatements.get(table);
      if (!prepared) {
        const template = insertTemplate(writer, table);
        prepared = { template, statement: writer.$client.prepare(template.sql) };
        copyStatements.set(table, prepared);
      }
      const { template, statement } = prepared;
      await transaction(async () => {
        for (const row of rows) statement.run(template.values(row));
      });
    },
    rowInsert<T extends SQLiteTable>(table: T): RowInsert<T> {
      const prepared = onFirstUse(() => {
        const template = insertTemplate(writer, table);
        return { template, statement: writer.$client.prepare(template.sql) };
      });
      return async (row) => {
        const { template, statement } = prepared();
        if (context.current()) {
          statement.run(template.values(row));
          return;
        }
        // Alone: still after the transaction under way, never inside it.
        await acquire();
        try {
          statement.run(template.values(row));
        } finally {
          release();
        }
      };
    },
    async sizeBytes() {
      return fileBytes(join(dataDir, DATABASE_FILE)) + fileBytes(join(dataDir, `${DATABASE_FILE}-wal`));
    },
    async ping() {
      readerConnection.prepare('SELECT 1').get();
    },
    // The writer: reads outside transactions go to the reader, which never waits.
    connections: () => ({ max: 1, open: 1, busy: busy ? 1 : 0, waiting: waiting.length }),
    observeTransactions(next) {
      observer = next;
    },
    async takeServerSlot() {
      return { release: async () => {} };
    },
    async close() {
      readerConnection.close();
      writer.$client.close();
    },
  };
}
