import { statSync } from 'node:fs';
import { join } from 'node:path';
import { asc, count, eq, isNull, lt, sql } from 'drizzle-orm';
import { DATABASE_FILE } from '../../db/connection.js';
import { attachments } from '../../db/schema/attachments.js';
import { type ConnectionKind, connectionLog, errorLog } from '../../db/schema/observability.js';
import { webhookDeliveries } from '../../db/schema/webhooks.js';
import { type EnvironmentScope, inScope } from '../../db/scope.js';
import type { Infrastructure } from '../context.js';
import { notFound } from '../errors.js';
import { newestFirstPage } from '../shared/scoped-page-sync.js';
import { type Metrics, MINUTE_MS, minuteOf, sumOf } from './metrics.js';

export type ConnectionRow = typeof connectionLog.$inferSelect;
export type ErrorRow = typeof errorLog.$inferSelect;

/** The window of `recentErrorRate` in diagnostics. */
const RECENT_MINUTES = 5;

function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // e.g. no write-ahead log at this moment
  }
}

/** The calendar month (UTC) `YYYY-MM`, or the current one: `[from, to)` in ms. */
export function monthPeriod(month: string | undefined, now: number) {
  const [year, index] = month
    ? [Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1]
    : [new Date(now).getUTCFullYear(), new Date(now).getUTCMonth()];
  const from = Date.UTC(year, index, 1);
  const to = Date.UTC(year, index + 1, 1);
  return { month: new Date(from).toISOString().slice(0, 7), from, to };
}

/** The reads behind the observability routes; every query is scoped to one project environment. */
export function createObservabilityService({ db, clock, dataDir }: Infrastructure, metrics: Metrics) {
  const startedAt = clock.now();

  return {
    listConnections(scope: EnvironmentScope, query: { kind?: ConnectionKind; limit: number; cursor?: string }) {
      return newestFirstPage(
        db,
        connectionLog,
        scope,
        query,
        query.kind ? eq(connectionLog.kind, query.kind) : undefined,
      );
    },

    getConnection(scope: EnvironmentScope, id: string): ConnectionRow {
      const row = db
        .select()
        .from(connectionLog)
        .where(inScope(connectionLog, scope, eq(connectionLog.id, id)))
        .get();
      if (!row) throw notFound('SERVICE_CONNECTION_NOT_FOUND', `No connection ${id} in this environment.`);
      return row;
    },

    listErrors(scope: EnvironmentScope, query: { limit: number; cursor?: string }) {
      return newestFirstPage(db, errorLog, scope, query);
    },

    getError(scope: EnvironmentScope, id: string): ErrorRow {
      const row = db
        .select()
        .from(errorLog)
        .where(inScope(errorLog, scope, eq(errorLog.id, id)))
        .get();
      if (!row) throw notFound('SERVICE_ERROR_NOT_FOUND', `No error record ${id} in this environment.`);
      return row;
    },

    /** The last `minutes` minutes up to and including the current one, zero-filled. */
    metrics(scope: EnvironmentScope, minutes: number) {
      const to = minuteOf(clock.now());
      const from = to - (minutes - 1) * MINUTE_MS;
      const values = metrics.read(scope, from, to);
      const minuteStarts = Array.from({ length: minutes }, (_, i) => from + i * MINUTE_MS);
      const series = (name: Parameters<Metrics['count']>[1]) => {
        const byMinute = values.get(name);
        return minuteStarts.map((at) => ({ at, value: byMinute?.get(at) ?? 0 }));
      };
      return {
        requests: series('requests'),
        errors: series('errors'),
        messages: series('messages'),
        connections: series('connections'),
        webhookSucceeded: series('webhook.succeeded'),
        webhookFailed: series('webhook.failed'),
        telemetryEvents: series('telemetry'),
      };
    },

    /**
     * Deployment figures (version, uptime, mode, database size) and this project environment's own
     * (webhook queue, open connections, error rate): members never see other projects' traffic.
     */
    diagnostics(scope: EnvironmentScope) {
      const now = clock.now();
      const pending = db
        .select({ pending: count(), oldest: sql<number | null>`min(${webhookDeliveries.createdAt})` })
        .from(webhookDeliveries)
        .where(inScope(webhookDeliveries, scope, eq(webhookDeliveries.status, 'PENDING')))
        .get();
      const open = db
        .select({ kind: connectionLog.kind, open: count() })
        .from(connectionLog)
        .where(inScope(connectionLog, scope, isNull(connectionLog.disconnectedAt)))
        .groupBy(connectionLog.kind)
        .orderBy(asc(connectionLog.kind))
        .all();
      const to = minuteOf(now);
      const from = to - (RECENT_MINUTES - 1) * MINUTE_MS;
      const recent = metrics.read(scope, from, to);
      const requests = sumOf(recent, ['requests']);
      const errors = sumOf(recent, ['errors']);
      return {
        uptimeSeconds: Math.floor((now - startedAt) / 1000),
        databaseBytes: fileBytes(join(dataDir, DATABASE_FILE)) + fileBytes(join(dataDir, `${DATABASE_FILE}-wal`)),
        webhookPending: pending?.pending ?? 0,
        oldestPendingAt: pending?.oldest ?? null,
        openConnections: {
          signaling: open.find((o) => o.kind === 'signaling')?.open ?? 0,
          realtime: open.find((o) => o.kind === 'realtime')?.open ?? 0,
        },
        recentErrorRate: requests === 0 ? 0 : errors / requests,
      };
    },

    /**
     * Usage of one calendar month (UTC): messages sent and webhook delivery attempts counted as they
     * happened (deleting a message later does not refund it), connection time overlapping the month
     * (open connections count up to now), and the bytes of completed attachments stored now.
     */
    usage(scope: EnvironmentScope, month: string | undefined) {
      const now = clock.now();
      const period = monthPeriod(month, now);
      const lastMinute = period.to - MINUTE_MS;
      const end = sql`coalesce(${connectionLog.disconnectedAt}, ${now})`;
      const connected = db
        .select({
          ms: sql<
            number | null
          >`sum(max(0, min(${end}, ${period.to}) - max(${connectionLog.connectedAt}, ${period.from})))`,
        })
        .from(connectionLog)
        .where(inScope(connectionLog, scope, lt(connectionLog.connectedAt, period.to)))
        .get();
      const stored = db
        .select({ bytes: sql<number | null>`sum(${attachments.size})` })
        .from(attachments)
        .where(inScope(attachments, scope, eq(attachments.status, 'COMPLETED')))
        .get();
      const counted = metrics.read(scope, period.from, lastMinute);
      return {
        period,
        messages: sumOf(counted, ['messages']),
        connectionMinutes: Math.ceil((connected?.ms ?? 0) / MINUTE_MS),
        webhookDeliveries: sumOf(counted, ['webhook.succeeded', 'webhook.failed']),
        storageBytes: stored?.bytes ?? 0,
      };
    },
  };
}

export type ObservabilityService = ReturnType<typeof createObservabilityService>;
