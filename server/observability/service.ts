import { and, asc, count, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import { attachments } from '../../db/schema/attachments.js';
import { type ConnectionKind, connectionLog, errorLog } from '../../db/schema/observability.js';
import { webhookDeliveries } from '../../db/schema/webhooks.js';
import { type EnvironmentScope, inScope } from '../../db/scope.js';
import type { Infrastructure } from '../context.js';
import { notFound } from '../errors.js';
import { newestFirstPage } from '../shared/scoped-page.js';
import type { EnvironmentClocks } from '../test-clock/clocks.js';
import { MEDIA_TOTALS_WINDOW_MS, mediaTotalsSince } from './media-totals.js';
import { type Metrics, MINUTE_MS, minuteOf, sumOf } from './metrics.js';

export type ConnectionRow = typeof connectionLog.$inferSelect;
export type ErrorRow = typeof errorLog.$inferSelect;

/** The window of each endpoint's delivery rate in diagnostics. */
const DELIVERY_RATE_WINDOW_MS = 60_000;
/** The window of `recentErrorRate` in diagnostics. */
const RECENT_MINUTES = 5;

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
/** `clocks`: the metric windows end at the environment's now (its test clock). */
export function createObservabilityService(
  { store, clock }: Infrastructure,
  metrics: Metrics,
  clocks: EnvironmentClocks,
) {
  const { db } = store;
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

    async getConnection(scope: EnvironmentScope, id: string): Promise<ConnectionRow> {
      const [row] = await db
        .select()
        .from(connectionLog)
        .where(inScope(connectionLog, scope, eq(connectionLog.id, id)))
        .limit(1);
      if (!row) throw notFound('SERVICE_CONNECTION_NOT_FOUND', `No connection ${id} in this environment.`);
      return row;
    },

    listErrors(scope: EnvironmentScope, query: { limit: number; cursor?: string }) {
      return newestFirstPage(db, errorLog, scope, query);
    },

    async getError(scope: EnvironmentScope, id: string): Promise<ErrorRow> {
      const [row] = await db
        .select()
        .from(errorLog)
        .where(inScope(errorLog, scope, eq(errorLog.id, id)))
        .limit(1);
      if (!row) throw notFound('SERVICE_ERROR_NOT_FOUND', `No error record ${id} in this environment.`);
      return row;
    },

    /** The last `minutes` minutes up to and including the current one, zero-filled. */
    async metrics(scope: EnvironmentScope, minutes: number) {
      const to = minuteOf(await clocks.now(scope));
      const from = to - (minutes - 1) * MINUTE_MS;
      const values = await metrics.read(scope, from, to);
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
    async diagnostics(scope: EnvironmentScope) {
      const now = clock.now();
      const [pending] = await db
        .select({ pending: count(), oldest: sql<number | null>`min(${webhookDeliveries.createdAt})` })
        .from(webhookDeliveries)
        .where(inScope(webhookDeliveries, scope, eq(webhookDeliveries.status, 'PENDING')));
      const open = await db
        .select({ kind: connectionLog.kind, open: count() })
        .from(connectionLog)
        .where(inScope(connectionLog, scope, isNull(connectionLog.disconnectedAt)))
        .groupBy(connectionLog.kind)
        .orderBy(asc(connectionLog.kind));
      const environmentNow = await clocks.now(scope);
      // Per endpoint: its queue's depth, and its deliveries that succeeded over the last minute (their last change
      // then: the `(status, updated_at)` index finds them), so that an endpoint falling behind shows as such.
      const pendingByEndpoint = await db
        .select({ webhookId: webhookDeliveries.endpointId, pending: count() })
        .from(webhookDeliveries)
        .where(inScope(webhookDeliveries, scope, eq(webhookDeliveries.status, 'PENDING')))
        .groupBy(webhookDeliveries.endpointId);
      const deliveredByEndpoint = await db
        .select({ webhookId: webhookDeliveries.endpointId, delivered: count() })
        .from(webhookDeliveries)
        .where(
          inScope(
            webhookDeliveries,
            scope,
            and(
              eq(webhookDeliveries.status, 'SUCCEEDED'),
              gte(webhookDeliveries.updatedAt, environmentNow - DELIVERY_RATE_WINDOW_MS),
            ),
          ),
        )
        .groupBy(webhookDeliveries.endpointId);
      const endpointIds = [
        ...new Set([...pendingByEndpoint, ...deliveredByEndpoint].map((row) => row.webhookId)),
      ].sort();
      const webhookEndpoints = endpointIds.map((webhookId) => ({
        webhookId,
        pending: pendingByEndpoint.find((row) => row.webhookId === webhookId)?.pending ?? 0,
        deliveredLastMinute: deliveredByEndpoint.find((row) => row.webhookId === webhookId)?.delivered ?? 0,
      }));
      const to = minuteOf(environmentNow);
      const from = to - (RECENT_MINUTES - 1) * MINUTE_MS;
      const recent = await metrics.read(scope, from, to);
      const requests = sumOf(recent, ['requests']);
      const errors = sumOf(recent, ['errors']);
      return {
        uptimeSeconds: Math.floor((now - startedAt) / 1000),
        databaseBytes: await store.sizeBytes(),
        webhookPending: pending?.pending ?? 0,
        oldestPendingAt: pending?.oldest ?? null,
        webhookEndpoints,
        openConnections: {
          signaling: open.find((o) => o.kind === 'signaling')?.open ?? 0,
          realtime: open.find((o) => o.kind === 'realtime')?.open ?? 0,
        },
        recentErrorRate: requests === 0 ? 0 : errors / requests,
        media: await mediaTotalsSince(db, scope, now - MEDIA_TOTALS_WINDOW_MS),
      };
    },

    /**
     * Usage of one calendar month (UTC): messages sent and webhook delivery attempts counted as they
     * happened (deleting a message later does not refund it), connection time overlapping the month
     * (open connections count up to now), and the bytes of completed attachments stored now.
     */
    async usage(scope: EnvironmentScope, month: string | undefined) {
      const now = clock.now();
      const period = monthPeriod(month, now);
      const lastMinute = period.to - MINUTE_MS;
      // Each connection's time within the month: from the later of its start and the month's, to the earlier of its
      // end (now while open) and the month's; none when that is not after. CASE WHEN, as SQLite's two-argument
      // min/max are PostgreSQL's least/greatest.
      const end = sql`coalesce(${connectionLog.disconnectedAt}, ${now})`;
      const until = sql`case when ${end} < ${period.to} then ${end} else ${period.to} end`;
      const since = sql`case when ${connectionLog.connectedAt} > ${period.from} then ${connectionLog.connectedAt} else ${period.from} end`;
      const [connected] = await db
        .select({
          ms: sql<number>`coalesce(sum(case when ${until} > ${since} then ${until} - ${since} else 0 end), 0)`.mapWith(
            Number,
          ),
        })
        .from(connectionLog)
        .where(inScope(connectionLog, scope, lt(connectionLog.connectedAt, period.to)));
      const [stored] = await db
        .select({ bytes: sql<number>`coalesce(sum(${attachments.size}), 0)`.mapWith(Number) })
        .from(attachments)
        .where(inScope(attachments, scope, eq(attachments.status, 'COMPLETED')));
      const counted = await metrics.read(scope, period.from, lastMinute);
      return {
        period,
        messages: sumOf(counted, ['messages']),
        connectionMinutes: Math.ceil(connected.ms / MINUTE_MS),
        webhookDeliveries: sumOf(counted, ['webhook.succeeded', 'webhook.failed']),
        storageBytes: stored.bytes,
      };
    },
  };
}

export type ObservabilityService = ReturnType<typeof createObservabilityService>;
