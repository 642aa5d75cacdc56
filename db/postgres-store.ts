import { getTableName, type SQLWrapper, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import pg from 'pg';
import { type Claim, type Claimer, type ClaimStatements, claimStatements, runClaim } from './claim.js';
import { postgresMigrations } from './migration-compatibility.js';
import { knownMigrations } from './migration-journal.js';
import { connectFailureReason, describePostgresUrl, StoreUnreachableError } from './postgres-url.js';
import { insertTemplate } from './prepared-insert.js';
import { enterSchemaHistory, type SchemaStanding, SchemaTooNewError } from './schema-history.js';
import type { Queries, RowInsert, ServerSlot, ServerSlotKind, Store, TransactionObserver } from './store.js';
import { timedTransaction } from './timed-transaction.js';
import { transactionContext } from './transaction-context.js';

export interface PostgresStore extends Store {
  readonly dialect: 'postgres';
}

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  /** db/postgres-migrations of the checkout or package. */
  migrationsFolder: string;
  /** Connections in the pool. Default 10. */
  poolSize?: number;
  /** Told about a pooled connection that failed while idle (the pool replaces it). */
  onIdleError?: (err: Error) => void;
  /** This server's version, recorded in the database's `server_versions` and named when it refuses (schema-history.ts). */
  serverVersion: string;
}

/** How long opening a connection may take: at start, and for a request when PostgreSQL went away. */
const CONNECT_TIMEOUT_MS = 5_000;

/** Any number: every Switchboard migrates under this one advisory lock, so that concurrent starts migrate once. */
const MIGRATION_LOCK = 4_700_024;

/** The first of a claim's two advisory lock keys (the second: its group's hash); pairs are apart from single keys. */
const CLAIM_LOCK = 4_700_025;

/** A claim's candidate rows, locked as read; those another claim has locked are passed over, not waited for. */
const skipLocked = (select: SQLWrapper) => (select as PgSelect).for('update', { skipLocked: true });

/**
 * How often a transaction that PostgreSQL aborted for a conflict with another (40001, 40P01) is run at most. A row
 * that many transactions update (an endpoint's count of failures, written by every attempt of its four lanes while
 * new attempts keep coming) can make one lose several times in a row under load: 8 tries with pauses of a few
 * milliseconds were not enough (a recorded webhook attempt was lost, and the delivery sent again).
 */
const MAX_ATTEMPTS = 20;

/** The longest pause before a retry: pauses grow 2, 4, 8… ms up to it, each a random part of that. */
const MAX_RETRY_PAUSE_MS = 200;

/** SQLSTATEs that say "run it again": serialization failure and deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);

/** The SQLSTATE of a driver error, also when drizzle wrapped it. */
export function sqlState(err: unknown): string | undefined {
  for (let cause = err; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

// int8 (bigint: times in milliseconds, counts, sizes) as numbers, as SQLite gives them: every value Switchboard stores
// is far below 2^53. pg's parsers are per process; this one is the only one Switchboard sets.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));

/**
 * The store for teams: PostgreSQL through a pool of `pg` connections (pure JavaScript, so the single executable and
 * the desktop app carry it). Queries are built by drizzle's PostgreSQL dialect from the same table objects as on
 * SQLite: their encoders (JSON as text, booleans as 0/1, times as integers) are what the generated PostgreSQL
 * columns accept. Transactions run at SERIALIZABLE, the isolation SQLite's single writer gives, and are run again
 * when PostgreSQL aborts one for a conflict.
 */
export async function openPostgresStore(options: PostgresOptions): Promise<PostgresStore> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // A request waits this long for a pooled connection (all busy, or the database gone) before failing with 503.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  pool.on('error', (err) => options.onIdleError?.(err));
  let schema: SchemaStanding;
  try {
    schema = await migrateOnce(pool, options.migrationsFolder, options.serverVersion);
  } catch (err) {
    await pool.end();
    if (err instanceof SchemaTooNewError) throw err;
    throw new StoreUnreachableError(
      `Cannot use the PostgreSQL database at ${describePostgresUrl(options.url)}: ${connectFailureReason(err)}.`,
      { cause: err },
    );
  }
  const base = drizzle(pool);
  const outside = base as unknown as Queries;
  const context = transactionContext(outside);
  /** Claimers made, so that each names its statements apart. */
  let claimers = 0;
  let observer: TransactionObserver | undefined;
  const poolSize = options.poolSize ?? 10;

  async function runTransaction<T>(work: (tx: Queries) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await base.transaction(
          (tx) => context.run(tx as unknown as Queries, () => work(tx as unknown as Queries)),
          { isolationLevel: 'serializable' },
        );
      } catch (err) {
        const state = sqlState(err);
        if (attempt >= MAX_ATTEMPTS || !state || !RETRYABLE.has(state)) throw err;
        // A random pause, growing, so that the transactions that conflicted do not meet again.
        const pause = Math.random() * Math.min(MAX_RETRY_PAUSE_MS, 2 ** attempt);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  return {
    dialect: 'postgres',
    db: context.db,
    schema,
    inTransaction: () => context.current() !== undefined,
    async transaction<T>(work: (tx: Queries) => Promise<T>): Promise<T> {
      const joined = context.current();
      if (joined) return work(joined);
      return timedTransaction(observer, () => runTransaction(work));
    },
    claimer<T extends SQLiteTable>(table: T, claim: Claim<T>): Claimer<T> {
      const name = `claim_${getTableName(table)}_${++claimers}`;
      // At READ COMMITTED each statement reads what is committed when it starts: after the group's lock, the count
      // sees every claim made before (SERIALIZABLE would read from the transaction's start, and abort on rows
      // another claim or recording changed). Never run again: a failed claim took nothing, and the next one tries.
      // Named statements: each pooled connection parses and plans them once.
      const inside = async (tx: NodePgDatabase, group: string, values: Record<string, unknown>) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK}, hashtext(${group}))`);
        // PostgreSQL's builders, typed as the description's: their `prepare` takes the statement's name.
        const statements = claimStatements(tx as unknown as Queries, table, claim, skipLocked) as unknown as {
          [K in keyof ClaimStatements]: { prepare(name: string): ClaimStatements[K] };
        };
        const prepared = {
          held: statements.held.prepare(`${name}_held`),
          take: statements.take.prepare(`${name}_take`),
        };
        return runClaim<T>(prepared, claim.limit, values);
      };
      return (group, values) => {
        const joined = context.current();
        if (joined) return inside(joined as unknown as NodePgDatabase, group, values);
        return base.transaction((tx) => inside(tx, group, values), { isolationLevel: 'read committed' });
      };
    },
    async insertRows(table, rows) {
      const tx = context.current();
      // PostgreSQL's builders, typed as the description's (see `claimer`).
      const queries = (tx ?? base) as unknown as Queries;
      await queries.insert(table).values(rows);
    },
    async copyRows(table, rows) {
      if (rows.length === 0) return;
      const template = insertTemplate(base, table);
      // `insert into "t" ("a", "b") values ($1, $2)`: the head, then as many rows of parameters as one statement takes.
      const head = template.sql.slice(0, template.sql.lastIndexOf(' values ('));
      const width = template.values(rows[0]).length;
      const perStatement = Math.max(1, Math.min(1_000, Math.floor(MAX_PARAMETERS / width)));
      const copy = async (tx: unknown) => {
        // The transaction's own connection, under drizzle's session: the text is ours, the values bound by `pg`.
        const client = (tx as { session: { client: pg.ClientBase } }).session.client;
        for (let start = 0; start < rows.length; start += perStatement) {
          const values: unknown[] = [];
          const tuples: string[] = [];
          for (const row of rows.slice(start, start + perStatement)) {
            const first = values.length;
            values.push(...template.values(row));
            tuples.push(`(${Array.from({ length: width }, (_, i) => `$${first + i + 1}`).join(', ')})`);
          }
          await client.query(`${head} values ${tuples.join(', ')}`, values);
        }
      };
      const joined = context.current();
      if (joined) await copy(joined);
      else await base.transaction(copy, { isolationLevel: 'serializable' });
    },
    rowInsert<T extends SQLiteTable>(table: T): RowInsert<T> {
      // Alone, a named statement run on the pool: each connection parses and plans it once.
      const template = insertTemplate(base, table);
      const name = `insert_${getTableName(table)}`;
      return async (row) => {
        const tx = context.current();
        if (tx) await tx.insert(table).values(row);
        else await pool.query({ name, text: template.sql, values: template.values(row) });
      };
    },
    async sizeBytes() {
      const { rows } = await pool.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
      return Number(rows[0].bytes);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    connections: () => ({
      max: poolSize,
      open: pool.totalCount,
      busy: pool.totalCount - pool.idleCount,
      waiting: pool.waitingCount,
    }),
    observeTransactions(next) {
      observer = next;
    },
    takeServerSlot: (kind) => takeServerSlot(options.url, kind, options.onIdleError),
    async close() {
      await pool.end();
    },
  };
}

/** The most parameters one statement of PostgreSQL's protocol can carry. */
const MAX_PARAMETERS = 65_535;

/** Any number: the advisory lock that every server on the database holds while it runs (see takeServerSlot). */
const SERVER_SLOT_LOCK = 4_700_025;

/**
 * A server's place on the database: a session-level advisory lock on a connection of its own, exclusive for a
 * server that must run alone, shared for one of several. PostgreSQL releases it when the connection ends, so a
 * server that died (even killed) leaves no slot taken. Should the connection drop while the server runs, the lock
 * goes with it: this is a guard against starting a second server by mistake, not a lease.
 */
async function takeServerSlot(
  url: string,
  kind: ServerSlotKind,
  onError?: (err: Error) => void,
): Promise<ServerSlot | false> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', (err) => onError?.(err));
  await client.connect();
  const lock = kind === 'alone' ? 'pg_try_advisory_lock' : 'pg_try_advisory_lock_shared';
  const { rows } = await client.query<{ taken: boolean }>(`SELECT ${lock}($1) AS taken`, [SERVER_SLOT_LOCK]);
  if (!rows[0].taken) {
    await client.end();
    return false;
  }
  return { release: () => client.end() };
}

/**
 * Applies db/postgres-migrations under an advisory lock (a second server starting at once waits, then finds none),
 * then judges and records the schema (db/schema-history.ts) under the same lock.
 */
async function migrateOnce(pool: pg.Pool, migrationsFolder: string, serverVersion: string): Promise<SchemaStanding> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const db = drizzle(client);
      // drizzle applies only the migrations made after the newest applied one: none on a database a newer server
      // migrated, which enterSchemaHistory then judges.
      await migrate(db, { migrationsFolder });
      const applied = await client.query<{ latest: number | null }>(
        'SELECT max(created_at) AS latest FROM drizzle.__drizzle_migrations',
      );
      return await enterSchemaHistory(db as unknown as Queries, {
        known: knownMigrations(migrationsFolder),
        compatibility: postgresMigrations,
        appliedLatest: Number(applied.rows[0]?.latest ?? 0),
        serverVersion,
        now: Date.now(),
      });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
