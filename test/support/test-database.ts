import { join } from 'node:path';
import pg from 'pg';
import { DATABASE_FILE } from '../../db/connection.js';
import Database from '../../db/sqlite-driver.js';

/**
 * A test's own connection to a test server's database, whichever store it is on: the SQLite file in its data folder,
 * or its PostgreSQL database. For what the API does not show (rows as stored) or cannot do (a row written behind the
 * server's back). Write SQL both understand, with `?` placeholders (numbered for PostgreSQL here).
 *
 * Values come back as each driver gives them: bigint as a number on both (db/postgres-store.ts sets pg's parser),
 * booleans as 0/1 on SQLite and true/false on PostgreSQL.
 */
export interface TestDatabase {
  readonly dialect: 'sqlite' | 'postgres';
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
  /** The tables, by name (code point order): on SQLite, drizzle's `__drizzle_migrations` among them. */
  tables(): Promise<string[]>;
  /** The columns of a table, in their order. */
  columns(table: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Where a test server keeps its data: `databaseUrl` on PostgreSQL, else the SQLite file in `dataDir`. */
export interface ServerData {
  dataDir: string;
  databaseUrl?: string;
}

export async function openTestDatabase(server: ServerData): Promise<TestDatabase> {
  if (server.databaseUrl) return openPostgres(server.databaseUrl);
  return openSqlite(join(server.dataDir, DATABASE_FILE));
}

/** Runs `use` on a connection to the server's database, closed afterwards. */
export async function withTestDatabase<T>(server: ServerData, use: (db: TestDatabase) => Promise<T>): Promise<T> {
  const db = await openTestDatabase(server);
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}

function openSqlite(file: string): TestDatabase {
  const sqlite = new Database(file, { fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  const bind = (params: unknown[]) => params.map((value) => (typeof value === 'boolean' ? Number(value) : value));
  return {
    dialect: 'sqlite',
    async query<T>(sql: string, params: unknown[] = []) {
      return sqlite.prepare(sql).all(...bind(params)) as T[];
    },
    async run(sql, params = []) {
      if (params.length === 0) sqlite.exec(sql);
      else sqlite.prepare(sql).run(...bind(params));
    },
    async tables() {
      return (
        sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
          name: string;
        }[]
      )
        .map((row) => row.name)
        .sort();
    },
    async columns(table) {
      return (sqlite.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[]).map(
        (row) => row.name,
      );
    },
    async close() {
      sqlite.close();
    },
  };
}

/** `?` → `$1`, `$2`… outside quoted strings and identifiers. */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  let quote: string | undefined;
  let out = '';
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '?') {
      out += `$${++n}`;
      continue;
    }
    out += ch;
  }
  return out;
}

async function openPostgres(url: string): Promise<TestDatabase> {
  // int8 as a number, as the server's own pool reads it (db/postgres-store.ts), whichever module loaded first.
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  await client.connect();
  const query = async <T>(sql: string, params: unknown[] = []) =>
    (await client.query(numberPlaceholders(sql), params)).rows as T[];
  return {
    dialect: 'postgres',
    query,
    async run(sql, params = []) {
      // Without parameters, as a script: several statements, or a function body with `?` or `$` in it.
      if (params.length === 0) await client.query(sql);
      else await client.query(numberPlaceholders(sql), params);
    },
    async tables() {
      const rows = await query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
      );
      return rows.map((row) => row.name).sort();
    },
    async columns(table) {
      const rows = await query<{ name: string }>(
        "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ? ORDER BY ordinal_position",
        [table],
      );
      return rows.map((row) => row.name);
    },
    async close() {
      await client.end();
    },
  };
}
