import { Readable } from 'node:stream';
import { asc, eq, getTableColumns } from 'drizzle-orm';
import { environmentSnapshots } from '../../db/schema/test-tools.js';
import { webhookEndpoints } from '../../db/schema/webhooks.js';
import { type EnvironmentScope, inScope, scopeValues } from '../../db/scope.js';
import type { Queries } from '../../db/store.js';
import type { UserActor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { StagedFile } from '../chat/attachments/storage.js';
import type { Infrastructure } from '../context.js';
import type { EnvironmentResetService, ResetCounts } from '../environment-reset/service.js';
import { conflict, notFound } from '../errors.js';
import { refuseProduction } from '../testing-tools.js';
import { countsOf, rowsOfScope, SNAPSHOT_KINDS, SNAPSHOT_TABLES, type SnapshotRow } from './contents.js';
import { decodeSnapshot, encodeSnapshot, type SnapshotDocument } from './document.js';
import type { SaveSnapshotInput } from './schemas.js';

/** A snapshot as listed: everything but its content. */
export type SnapshotSummary = Omit<typeof environmentSnapshots.$inferSelect, 'content' | 'counts'> & {
  counts: ResetCounts;
};

export interface SnapshotRestore {
  scope: EnvironmentScope;
  name: string;
  restoredAt: number;
  removed: ResetCounts;
  restored: ResetCounts;
}

const { content: _content, ...summaryColumns } = getTableColumns(environmentSnapshots);

/**
 * Named snapshots of an environment's runtime data, for tests that start from a known state: a snapshot holds exactly
 * what an environment reset removes (server/environment-reset: rooms, chat, attachments with their bytes, live
 * streams, connection records, webhook deliveries and attempts, telemetry, metrics, errors), and a restore is a reset
 * that then puts the snapshot's rows back, ids and times as they were, in one transaction. Keys, webhook endpoints,
 * members, the test clock, faults and the audit log are neither saved nor restored. Never production's.
 */
export function createEnvironmentSnapshotService(
  { store, clock, events, logger, attachmentStorage }: Infrastructure,
  audit: AuditService,
  reset: EnvironmentResetService,
  flushMetrics: () => Promise<void>,
) {
  const { db } = store;
  const refuseProductionSnapshots = (scope: EnvironmentScope) =>
    refuseProduction(
      scope,
      'Production has no snapshots: its data is your live app’s. Save and restore development or staging.',
    );
  const snapshotNotFound = (scope: EnvironmentScope, name: string) =>
    notFound('SERVICE_SNAPSHOT_NOT_FOUND', `No snapshot named ${name} in ${scope.environment}.`);
  const named = (scope: EnvironmentScope, name: string) =>
    inScope(environmentSnapshots, scope, eq(environmentSnapshots.name, name));

  /** An attachment's bytes, or undefined when they are gone (a row left without them is restored without them). */
  async function bytesOf(projectId: string, id: string): Promise<Buffer | undefined> {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of await attachmentStorage.read({ projectId, id })) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** Every row of the scope, and the bytes of its attachments: read in one transaction, one moment. */
  async function readScope(tx: Queries, scope: EnvironmentScope): Promise<SnapshotDocument> {
    const where = rowsOfScope(tx, scope);
    const rows = {} as SnapshotDocument['rows'];
    for (const kind of SNAPSHOT_KINDS) rows[kind] = await tx.select().from(SNAPSHOT_TABLES[kind]).where(where[kind]);
    const files: SnapshotDocument['files'] = {};
    for (const row of rows.attachments) {
      if (row.status === 'PENDING') continue;
      const bytes = await bytesOf(row.projectId as string, row.id as string);
      if (bytes) files[row.id as string] = bytes;
    }
    return { rows, files };
  }

  return {
    /** The environment's snapshots, by name (production has none). */
    async list(scope: EnvironmentScope): Promise<SnapshotSummary[]> {
      const rows = await db
        .select(summaryColumns)
        .from(environmentSnapshots)
        .where(inScope(environmentSnapshots, scope))
        .orderBy(asc(environmentSnapshots.name));
      return rows.map((row) => ({ ...row, counts: row.counts as ResetCounts }));
    },

    async save(actor: UserActor, scope: EnvironmentScope, input: SaveSnapshotInput): Promise<SnapshotSummary> {
      refuseProductionSnapshots(scope);
      await flushMetrics(); // the counts still in memory belong to what is saved
      const document = await store.transaction((tx) => readScope(tx, scope));
      const content = encodeSnapshot(document);
      const snapshot = {
        ...scopeValues(scope),
        name: input.name,
        createdAt: clock.now(),
        createdBy: actor.email,
        counts: countsOf(document.rows),
        sizeBytes: content.length,
      };
      await store.transaction(async (tx) => {
        const [existing] = await tx
          .select({ name: environmentSnapshots.name })
          .from(environmentSnapshots)
          .where(named(scope, input.name))
          .limit(1);
        if (existing && !input.replace)
          throw conflict(
            'SERVICE_SNAPSHOT_EXISTS',
            `A snapshot named ${input.name} exists in ${scope.environment}: delete it first, or save with replace.`,
          );
        if (existing) await tx.delete(environmentSnapshots).where(named(scope, input.name));
        await tx.insert(environmentSnapshots).values({ ...snapshot, content });
        await audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'environment.snapshot_saved',
          target: { type: 'environment_snapshot', id: input.name },
          environment: scope.environment,
          details: { name: input.name, replaced: Boolean(existing), counts: snapshot.counts },
        });
      });
      return snapshot;
    },

    /**
     * Replaces the environment's runtime data with the snapshot's, as a reset then an import in one transaction;
     * afterwards the environment's sockets close (4205) and memory forgets it, as after a reset.
     */
    async restore(actor: UserActor, scope: EnvironmentScope, name: string): Promise<SnapshotRestore> {
      refuseProductionSnapshots(scope);
      const [saved] = await db
        .select({ content: environmentSnapshots.content })
        .from(environmentSnapshots)
        .where(named(scope, name))
        .limit(1);
      if (!saved) throw snapshotNotFound(scope, name);
      const document = decodeSnapshot(saved.content);
      const restoredAt = clock.now();
      // The bytes are received before the transaction (a file beside SQLite, memory for PostgreSQL) and put in place
      // inside it, after their rows (PostgreSQL's chunks refer to them), as an upload's are.
      const staged: StagedFile[] = [];
      try {
        for (const [id, bytes] of Object.entries(document.files))
          staged.push(
            await attachmentStorage.stage({ projectId: scope.projectId, id }, Readable.from([bytes]), bytes.length),
          );
      } catch (err) {
        for (const file of staged) file.discard();
        throw err;
      }
      const { removed, restored, removeFiles } = await store
        .transaction(async (tx) => {
          const deleted = await reset.deleteRuntimeDataIn(tx, scope);
          const rows = await withoutDeletedEndpoints(tx, scope, document.rows);
          for (const kind of SNAPSHOT_KINDS) await store.copyRows(SNAPSHOT_TABLES[kind], rows[kind] as never);
          for (const file of staged) await file.place();
          const restored = countsOf(rows);
          await audit.record(tx, {
            projectId: scope.projectId,
            actor,
            action: 'environment.snapshot_restored',
            target: { type: 'environment_snapshot', id: name },
            environment: scope.environment,
            details: { name, removed: deleted.removed, restored },
          });
          return { removed: deleted.removed, restored, removeFiles: deleted.removeFiles };
        })
        .catch((err: unknown) => {
          for (const file of staged) file.discard();
          throw err;
        });
      events.emit('environment.reset', { ...scope, removed, snapshot: name });
      try {
        removeFiles(new Set(Object.keys(document.files)));
      } catch (err) {
        logger.error({ err, ...scope }, 'snapshot restore: could not delete every replaced attachment file');
      }
      return { scope, name, restoredAt, removed, restored };
    },

    async delete(actor: UserActor, scope: EnvironmentScope, name: string): Promise<void> {
      refuseProductionSnapshots(scope);
      await store.transaction(async (tx) => {
        const gone = await tx
          .delete(environmentSnapshots)
          .where(named(scope, name))
          .returning({ name: environmentSnapshots.name });
        if (gone.length === 0) throw snapshotNotFound(scope, name);
        await audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'environment.snapshot_deleted',
          target: { type: 'environment_snapshot', id: name },
          environment: scope.environment,
          details: { name },
        });
      });
    },
  };
}

/**
 * The snapshot's rows but the webhook deliveries (and their attempts) of endpoints deleted since it was saved:
 * endpoints are kept by a reset, so not in a snapshot, and a delivery cannot outlive its endpoint.
 */
async function withoutDeletedEndpoints(
  tx: Queries,
  scope: EnvironmentScope,
  rows: SnapshotDocument['rows'],
): Promise<SnapshotDocument['rows']> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(inScope(webhookEndpoints, scope));
  const endpointIds = new Set(endpoints.map((endpoint) => endpoint.id));
  const deliveries = rows.webhookDeliveries.filter((row: SnapshotRow) => endpointIds.has(row.endpointId as string));
  const deliveryIds = new Set(deliveries.map((row) => row.id as string));
  const attempts = rows.webhookAttempts.filter((row: SnapshotRow) => deliveryIds.has(row.deliveryId as string));
  return { ...rows, webhookDeliveries: deliveries, webhookAttempts: attempts };
}

export type EnvironmentSnapshotService = ReturnType<typeof createEnvironmentSnapshotService>;
