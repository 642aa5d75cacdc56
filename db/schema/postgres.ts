/**
 * The PostgreSQL tables, made from the one description of the tables (the SQLite ones in this folder): same table,
 * column, index and constraint names, each column a type that carries the same values. drizzle-kit reads this file
 * to write PostgreSQL's migrations (`npm run db:generate`), and test/db/dialects.test.ts checks that both
 * dialects' migrations build the same tables.
 *
 * Types: text stays text, compared byte by byte as in SQLite (JSON columns too: their values are encoded and decoded
 * as text by the description's columns); integers are bigint (times are milliseconds since the epoch, past int4);
 * booleans are boolean.
 */
import { type Column, getTableColumns, is, type SQL } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  foreignKey,
  index,
  type PgColumnBuilderBase,
  type PgTable,
  pgTable,
  primaryKey,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as description from './index.js';

/**
 * Text compared byte by byte, as SQLite compares it: ids sort by their characters (cursors page by id), and no
 * locale's rules (which differ between servers, and ignore case or punctuation) decide what is equal or first.
 */
const text = customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });

/** Bytes: SQLite's blob. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** The PostgreSQL column for a column of the description. */
function pgColumn(column: Column): PgColumnBuilderBase {
  const builder = (() => {
    switch (column.columnType) {
      case 'SQLiteText':
      case 'SQLiteTextJson':
        return text(column.name);
      case 'SQLiteInteger':
        return bigint(column.name, { mode: 'number' });
      case 'SQLiteBoolean':
        return boolean(column.name);
      case 'SQLiteBlobBuffer':
        return bytea(column.name);
      default:
        throw new Error(`db/schema/postgres.ts: no PostgreSQL type for ${column.name} (${column.columnType})`);
    }
  })();
  if (column.primary) builder.primaryKey();
  if (column.notNull) builder.notNull();
  if (column.hasDefault && column.default !== undefined) builder.default(column.default as never);
  if (column.isUnique) builder.unique(column.uniqueName);
  return builder;
}

/** The description's tables, by the name each is exported under. */
const described = Object.entries(description as Record<string, unknown>).filter(
  (entry): entry is [string, SQLiteTable] => is(entry[1], SQLiteTable),
);

/** The PostgreSQL tables, by name in the database; all made before any constraint is read (drizzle reads them late). */
const byName = new Map<string, PgTable>();

const tableNameOf = (column: Column) => getTableConfig(column.table as SQLiteTable).name;

/** The column named `name` among `columns`: a PostgreSQL table's, or those drizzle hands its constraints. */
function columnNamed(columns: object | undefined, table: string, name: string): AnyPgColumn {
  const column = Object.values(columns ?? {}).find((c: Column) => c.name === name);
  if (!column) throw new Error(`db/schema/postgres.ts: no column ${table}.${name}`);
  return column;
}

/** The PostgreSQL column of a column of the description, in a table made here. */
function same(column: Column): AnyPgColumn {
  const table = byName.get(tableNameOf(column));
  return columnNamed(table && getTableColumns(table), tableNameOf(column), column.name);
}

function pgTableOf(table: SQLiteTable) {
  const config = getTableConfig(table);
  const columns = Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => [key, pgColumn(column)]),
  );
  return pgTable(config.name, columns, (t) => {
    // Indexes and keys take the columns drizzle hands this callback, not the table's.
    const own = (column: Column) => columnNamed(t, config.name, column.name);
    return [
      ...config.primaryKeys.map((key) => primaryKey({ name: key.getName(), columns: key.columns.map(own) as never })),
      ...config.indexes.map(({ config: i }) => {
        const [first, ...rest] = (i.columns as Column[]).map(own);
        const built = (i.unique ? uniqueIndex(i.name) : index(i.name)).on(first, ...rest);
        return i.where ? built.where(i.where as SQL) : built;
      }),
      ...config.foreignKeys.map((key) => {
        const reference = key.reference();
        const built = foreignKey({
          name: key.getName(),
          columns: reference.columns.map(own) as never,
          foreignColumns: reference.foreignColumns.map(same) as never,
        });
        if (key.onDelete) built.onDelete(key.onDelete);
        if (key.onUpdate) built.onUpdate(key.onUpdate);
        return built;
      }),
    ];
  });
}

const tables: Record<string, PgTable> = {};
for (const [key, table] of described) {
  tables[key] = pgTableOf(table);
  byName.set(getTableConfig(table).name, tables[key]);
}

// drizzle-kit finds tables among a module's named exports: each is named here, as in the description.
export const {
  apiKeys,
  attachmentChunks,
  attachments,
  auditLog,
  conversationMembers,
  conversations,
  messages,
  reactions,
  recordingEntries,
  readStates,
  liveStreamParticipants,
  liveStreams,
  connectionLog,
  environmentClocks,
  environmentFaults,
  environmentSnapshots,
  environmentRecordings,
  errorLog,
  metricBuckets,
  projectMembers,
  projects,
  rooms,
  schemaMigrations,
  serverSecrets,
  serverVersions,
  sessions,
  telemetryEvents,
  users,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  ...unexported
} = tables;
if (Object.keys(unexported).length > 0)
  throw new Error(`db/schema/postgres.ts: export the new tables ${Object.keys(unexported).join(', ')} too`);
