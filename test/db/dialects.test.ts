// Both dialects' committed migrations build the same tables: each applied to a real database (SQLite in a temporary
// file, Debian's PostgreSQL), then their catalogues compared. This is what keeps db/schema/postgres.ts, drizzle-kit's
// PostgreSQL migrations and the description of the tables (db/schema/) from drifting apart.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection.js';
import { type PostgresServer, postgresMissing, startPostgres } from '../support/postgres.js';

interface Catalogue {
  /**
   * table → its columns, by name (SQLite appends a column added later; PostgreSQL's first migration has it in the
   * description's place): `name type [not null] [default …]`, the type as one of text, integer, boolean.
   */
  columns: Record<string, string[]>;
  /** table → its primary key's columns. */
  primaryKeys: Record<string, string[]>;
  /** Indexes and unique constraints: `table (columns) [unique] [partial]`, sorted. */
  indexes: string[];
  /** `table (columns) → table (columns) on delete …`, sorted. */
  foreignKeys: string[];
}

/** SQLite stores integers, booleans among them, as integer; the description says which it is. */
const BOOLEAN_COLUMNS = new Set(['webhook_endpoints.enabled']);

function sqliteCatalogue(folder: string): Catalogue {
  const db = openDatabase(folder, {
    migrationsFolder: 'db/migrations',
    postgresMigrationsFolder: 'db/postgres-migrations',
    nativeBinding: undefined,
    newDatabase: undefined,
  });
  const sqlite = db.$client;
  try {
    const all = <T>(query: string) => sqlite.prepare(query).all() as T[];
    const tables = all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'",
    ).map((t) => t.name);
    const catalogue: Catalogue = { columns: {}, primaryKeys: {}, indexes: [], foreignKeys: [] };
    for (const table of tables) {
      const info = all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
        `PRAGMA table_info('${table}')`,
      );
      catalogue.columns[table] = info.map((c) => {
        const type = BOOLEAN_COLUMNS.has(`${table}.${c.name}`) ? 'boolean' : c.type.toLowerCase();
        return [c.name, type, c.notnull ? 'not null' : '', c.dflt_value ? `default ${c.dflt_value}` : '']
          .filter(Boolean)
          .join(' ');
      });
      catalogue.primaryKeys[table] = info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      for (const index of all<{ name: string; unique: number; origin: string; partial: number }>(
        `PRAGMA index_list('${table}')`,
      )) {
        if (index.origin === 'pk') continue;
        const columns = all<{ name: string }>(`PRAGMA index_info('${index.name}')`).map((c) => c.name);
        catalogue.indexes.push(
          `${table} (${columns.join(', ')})${index.unique ? ' unique' : ''}${index.partial ? ' partial' : ''}`,
        );
      }
      const keys = new Map<number, { table: string; from: string[]; to: string[]; onDelete: string }>();
      for (const key of all<{ id: number; table: string; from: string; to: string; on_delete: string }>(
        `PRAGMA foreign_key_list('${table}')`,
      )) {
        const entry = keys.get(key.id) ?? { table: key.table, from: [], to: [], onDelete: key.on_delete.toLowerCase() };
        entry.from.push(key.from);
        entry.to.push(key.to);
        keys.set(key.id, entry);
      }
      for (const key of keys.values())
        catalogue.foreignKeys.push(
          `${table} (${key.from.join(', ')}) → ${key.table} (${key.to.join(', ')}) on delete ${key.onDelete}`,
        );
    }
    catalogue.indexes.sort();
    catalogue.foreignKeys.sort();
    return catalogue;
  } finally {
    sqlite.close();
  }
}

const POSTGRES_TYPES: Record<string, string> = { text: 'text', bigint: 'integer', boolean: 'boolean', bytea: 'blob' };

function postgresCatalogue(server: PostgresServer, database: string): Catalogue {
  const rows = (sql: string) =>
    server
      .psql({ sql }, database)
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('|'));
  const catalogue: Catalogue = { columns: {}, primaryKeys: {}, indexes: [], foreignKeys: [] };
  for (const [table, name, type, nullable, fallback, collation] of rows(
    `SELECT table_name, column_name, data_type, is_nullable, coalesce(column_default, ''), coalesce(collation_name, '')
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name NOT LIKE '__drizzle%'
      ORDER BY table_name, ordinal_position`,
  )) {
    // Text compares byte by byte, as in SQLite (db/schema/postgres.ts).
    if (type === 'text') expect(collation, `${table}.${name}`).toBe('C');
    const shownDefault = fallback.replace(/::text$/, '');
    catalogue.columns[table] ??= [];
    catalogue.columns[table].push(
      [
        name,
        POSTGRES_TYPES[type] ?? type,
        nullable === 'NO' ? 'not null' : '',
        shownDefault && `default ${shownDefault}`,
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  for (const table of Object.keys(catalogue.columns)) catalogue.primaryKeys[table] = [];
  const constraintColumns = (columns: string) => columns.replace(/[{}]/g, '').split(',').join(', ');
  for (const [table, kind, columns, foreignTable, foreignColumns, onDelete] of rows(
    `SELECT c.conrelid::regclass, c.contype,
            array(SELECT attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
                    JOIN pg_attribute ON attrelid = c.conrelid AND attnum = k.n ORDER BY k.i),
            coalesce(c.confrelid::regclass::text, ''),
            array(SELECT attname FROM unnest(coalesce(c.confkey, '{}')) WITH ORDINALITY k(n, i)
                    JOIN pg_attribute ON attrelid = c.confrelid AND attnum = k.n ORDER BY k.i),
            c.confdeltype
       FROM pg_constraint c JOIN pg_namespace ns ON ns.oid = c.connamespace WHERE ns.nspname = 'public'`,
  )) {
    if (kind === 'p') catalogue.primaryKeys[table] = constraintColumns(columns).split(', ');
    if (kind === 'u') catalogue.indexes.push(`${table} (${constraintColumns(columns)}) unique`);
    if (kind === 'f') {
      const action = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' }[onDelete];
      catalogue.foreignKeys.push(
        `${table} (${constraintColumns(columns)}) → ${foreignTable} (${constraintColumns(foreignColumns)}) on delete ${action}`,
      );
    }
  }
  for (const [table, definition] of rows(
    `SELECT tablename, indexdef FROM pg_indexes i WHERE schemaname = 'public'
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  )) {
    const columns = /\(([^)]*)\)/.exec(definition)?.[1].replace(/"/g, '') ?? '';
    catalogue.indexes.push(
      `${table} (${columns})${definition.startsWith('CREATE UNIQUE') ? ' unique' : ''}${definition.includes(' WHERE ') ? ' partial' : ''}`,
    );
  }
  catalogue.indexes.sort();
  catalogue.foreignKeys.sort();
  return catalogue;
}

const missing = postgresMissing();
if (missing) console.warn(`Skipping the dialect comparison: ${missing}`);

describe.skipIf(missing !== undefined)('the two dialects’ migrations', () => {
  let server: PostgresServer;
  let folder: string;
  beforeAll(async () => {
    server = await startPostgres();
    folder = mkdtempSync(join(tmpdir(), 'switchboard-dialects-'));
  }, 60_000);
  afterAll(() => {
    server?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('build the same tables, columns, keys and indexes', () => {
    const database = server.createDatabase();
    const migrations = 'db/postgres-migrations';
    for (const file of readdirSync(migrations)
      .filter((name) => name.endsWith('.sql'))
      .sort())
      server.psql({ file: join(migrations, file) }, database);
    const postgres = postgresCatalogue(server, database);
    const sqlite = sqliteCatalogue(folder);
    expect(Object.keys(postgres.columns).sort()).toEqual(Object.keys(sqlite.columns).sort());
    for (const table of Object.keys(sqlite.columns)) {
      expect([...postgres.columns[table]].sort(), table).toEqual([...sqlite.columns[table]].sort());
      expect(postgres.primaryKeys[table], `${table}'s primary key`).toEqual(sqlite.primaryKeys[table]);
    }
    expect(postgres.indexes).toEqual(sqlite.indexes);
    expect(postgres.foreignKeys).toEqual(sqlite.foreignKeys);
  });
});
