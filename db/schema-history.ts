import { eq, gt } from 'drizzle-orm';
import type { MigrationCompatibility } from './migration-compatibility.js';
import type { JournalEntry } from './migration-journal.js';
import { schemaMigrations, serverVersions } from './schema/schema-history.js';
import type { Queries } from './store.js';

/** A migration as `schema_migrations` records it. */
export interface RecordedMigration {
  tag: string;
  createdAt: number;
  compatibility: MigrationCompatibility;
  firstServerVersion: string;
}

/** Where this server stands on its database's schema. */
export interface SchemaStanding {
  /**
   * The database's migrations that this server's code does not know, all `expand`: it runs beside a newer server (a
   * rolling upgrade under way). Empty when it knows them all.
   */
  newer: RecordedMigration[];
}

/** The one-line refusal of a server older than its database's schema can run beside. */
export class SchemaTooNewError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaTooNewError';
  }
}

const WHAT_TO_DO =
  'or stop every server and restore the backup taken before the upgrade (docs/deployment.md#upgrading)';

/**
 * Whether a server whose code knows the migrations `known` may run on a database whose newest applied migration is
 * `appliedLatest` (drizzle's `created_at`), given what was recorded of the database's migrations newer than its
 * code: it may when it knows them all, or when every newer one is recorded as `expand`. Throws SchemaTooNewError,
 * saying what to do, when not.
 */
export function judgeSchema(
  known: JournalEntry[],
  appliedLatest: number,
  recordedNewer: RecordedMigration[],
  serverVersion: string,
): SchemaStanding {
  const knownLatest = Math.max(...known.map((entry) => entry.when));
  if (appliedLatest <= knownLatest) return { newer: [] };
  const breaking = recordedNewer.find((migration) => migration.compatibility !== 'expand');
  if (breaking)
    throw new SchemaTooNewError(
      `This database has migration ${breaking.tag}, applied by Switchboard ${breaking.firstServerVersion}, which servers older than it cannot run beside: upgrade this server (Switchboard ${serverVersion}) to that version or later, ${WHAT_TO_DO}.`,
    );
  const recordedUpTo = Math.max(0, ...recordedNewer.map((migration) => migration.createdAt));
  if (recordedUpTo < appliedLatest)
    throw new SchemaTooNewError(
      `This database was migrated by a newer Switchboard than this server (Switchboard ${serverVersion}), and whether older servers can run beside it is not recorded: upgrade this server, ${WHAT_TO_DO}.`,
    );
  return { newer: recordedNewer.sort((a, b) => a.createdAt - b.createdAt) };
}

/**
 * At a server's start, once its migrations are applied (on PostgreSQL under the migration lock): judges the database
 * (judgeSchema: refuses to go on when this server is too old for it), then records the migrations of this build not
 * yet in `schema_migrations`, with their compatibility, and this server's version in `server_versions`. Dialect-free:
 * the caller reads `appliedLatest` from drizzle's own table, which each dialect keeps in its own place.
 */
export async function enterSchemaHistory(
  db: Queries,
  options: {
    known: JournalEntry[];
    compatibility: Record<string, MigrationCompatibility>;
    appliedLatest: number;
    serverVersion: string;
    now: number;
  },
): Promise<SchemaStanding> {
  const { known, compatibility, appliedLatest, serverVersion, now } = options;
  const knownLatest = known.reduce((latest, entry) => (entry.when > latest.when ? entry : latest));
  const recordedNewer =
    appliedLatest > knownLatest.when
      ? await db.select().from(schemaMigrations).where(gt(schemaMigrations.createdAt, knownLatest.when))
      : [];
  const standing = judgeSchema(known, appliedLatest, recordedNewer, serverVersion);

  const [recorded] = await db
    .select({ tag: schemaMigrations.tag })
    .from(schemaMigrations)
    .where(eq(schemaMigrations.tag, knownLatest.tag))
    .limit(1);
  if (!recorded)
    await db
      .insert(schemaMigrations)
      .values(
        known.map((entry) => ({
          tag: entry.tag,
          createdAt: entry.when,
          // Undeclared (test/db/migration-compatibility.test.ts prevents it): older servers had better refuse.
          compatibility: compatibility[entry.tag] ?? 'breaking',
          firstServerVersion: serverVersion,
          recordedAt: now,
        })),
      )
      .onConflictDoNothing();
  await db
    .insert(serverVersions)
    .values({ version: serverVersion, schema: knownLatest.tag, firstStartedAt: now, lastStartedAt: now })
    .onConflictDoUpdate({ target: [serverVersions.version, serverVersions.schema], set: { lastStartedAt: now } });
  return standing;
}
