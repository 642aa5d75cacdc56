import { and, eq, isNull, lt, notInArray, or } from 'drizzle-orm';
import { connectionLog, errorLog } from '../../db/schema/observability.js';
import { type EnvironmentScope, scopeValues } from '../../db/scope.js';
import type { Infrastructure } from '../context.js';
import type { ServiceError } from '../errors.js';
import { keepNewest } from '../shared/scoped-page.js';
import type { EnvironmentClocks } from '../test-clock/clocks.js';
import { createMetrics, METRIC_RETENTION_MS } from './metrics.js';

/** Per project environment, older error records beyond this many are dropped. */
export const ERROR_RETENTION = 10_000;
/** How many recorded errors between two retention checks (the check costs a query). */
export const PRUNE_ERRORS_EVERY = 500;
/** How often counted metrics are written to the database. */
export const METRICS_FLUSH_MS = 5_000;
/** How often, with several nodes, the connections of a node that died are ended in the log (with the flush). */
const LOST_NODE_SWEEP_MS = 15_000;
const HOUR_MS = 3_600_000;

/** What the HTTP layer knows about a failed runtime request once its credential was accepted. */
export interface FailedRequest {
  scope: EnvironmentScope;
  requestId: string;
  method: string;
  /** Route pattern, e.g. `/v1/rooms/{id}`. */
  route: string;
  credential: 'key' | 'chat' | 'rtc';
  error: ServiceError;
}

/**
 * Records what the observability routes read: connections (from the hubs' `connection.*` events),
 * errors of runtime routes, and per-minute counters. With `enabled: false` (the benchmark's
 * baseline only) it records nothing; the reads still answer, empty.
 */
export function createObservabilityRecorder(
  infra: Infrastructure,
  clocks: EnvironmentClocks,
  { enabled }: { enabled: boolean },
) {
  const { store, clock, ids, events, logger, cluster } = infra;
  const metrics = createMetrics(infra, clocks);
  let errorsSincePrune = 0;
  let flushTimer: NodeJS.Timeout | undefined;

  /**
   * The records of connections and errors, written one after another (each a transaction or a lone insert) in the
   * order of their events (a connection's close after its open). Never rejects.
   */
  let writing: Promise<void> = Promise.resolve();
  /**
   * Queues a write; its failure (e.g. the database closing at shutdown) is logged: it must not fail the emitter or the
   * answer that was already sent.
   */
  function record(what: string, write: () => Promise<unknown>, then?: () => void): void {
    writing = writing
      .then(async () => {
        await write();
        then?.();
      })
      .catch((err: unknown) => logger.warn({ err }, `observability: could not record ${what}`));
  }

  /**
   * Every socket's handshake writes one: prepared once, and one statement with no transaction around it (built by
   * drizzle in a transaction, it was ≈90 µs of a handshake's ≈1 ms of server CPU with 10,000 sockets opening).
   */
  const insertConnection = store.rowInsert(connectionLog);

  if (enabled) {
    // Each node records its own connections and counts its own events: another node's are its to record.
    events.onLocal('connection.opened', (c) => {
      const { projectId, environment } = scopeValues(c);
      record('a connection', () =>
        insertConnection({
          id: c.id,
          projectId,
          environment,
          kind: c.kind,
          identity: c.identity,
          roomId: c.roomId,
          conversationId: c.conversationId,
          connectedAt: c.at,
          disconnectedAt: null,
          closeCode: null,
          closeReason: null,
          nodeId: cluster.nodeId,
          mediaBytesIn: null,
          mediaBytesOut: null,
          mediaPacketsLostIn: null,
          mediaPacketsLostOut: null,
        }),
      );
      metrics.count(c, 'connections');
    });
    events.onLocal('connection.closed', (c) => {
      record('a disconnection', () =>
        store.transaction((tx) =>
          tx
            .update(connectionLog)
            .set({ disconnectedAt: c.at, closeCode: c.code, closeReason: c.reason })
            .where(and(eq(connectionLog.id, c.id), isNull(connectionLog.disconnectedAt))),
        ),
      );
    });
    events.onLocal('connection.media', (m) => {
      record('a connection’s media', () =>
        store.transaction((tx) =>
          tx
            .update(connectionLog)
            .set({
              mediaBytesIn: m.bytesIn,
              mediaBytesOut: m.bytesOut,
              mediaPacketsLostIn: m.packetsLostIn,
              mediaPacketsLostOut: m.packetsLostOut,
            })
            .where(eq(connectionLog.id, m.id)),
        ),
      );
    });
    events.onLocal('chat', (e) => {
      if (e.type === 'message.created') metrics.count(e, 'messages');
    });
    events.onLocal('webhook.attempted', (e) => metrics.count(e, e.succeeded ? 'webhook.succeeded' : 'webhook.failed'));
    events.onLocal('telemetry.accepted', (e) => metrics.count(e, 'telemetry', e.count));
    events.on('project.deleted', ({ projectId }) => metrics.forgetProject(projectId));
    events.on('environment.reset', (scope) => metrics.forgetEnvironment(scope));
  }

  /** Closed connections past the usage horizon go (on start, then hourly with the flush). */
  let lastConnectionPrune = 0;
  let lastLostNodeSweep = 0;
  async function pruneConnections(now: number): Promise<void> {
    lastConnectionPrune = now;
    await store.transaction((tx) =>
      tx.delete(connectionLog).where(lt(connectionLog.disconnectedAt, now - METRIC_RETENTION_MS)),
    );
  }

  /**
   * Ends the connections still open in the log whose node is gone: a previous run of this server that ended without
   * closing them (alone: every open one), or a node of several that died (killed, cut off: its heartbeat expired).
   * With several nodes, only while Redis says which are alive.
   */
  async function endConnectionsOfLostNodes(reason: string): Promise<void> {
    const bus = cluster.busStatus();
    if (bus === 'down') return;
    const live = bus === 'alone' ? [cluster.nodeId] : (await cluster.nodes()).map((node) => node.id);
    const now = clock.now();
    await store.transaction((tx) =>
      tx
        .update(connectionLog)
        .set({ disconnectedAt: now, closeReason: reason })
        .where(
          and(
            isNull(connectionLog.disconnectedAt),
            bus === 'alone' ? undefined : or(isNull(connectionLog.nodeId), notInArray(connectionLog.nodeId, live)),
          ),
        ),
    );
  }

  /** Never rejects: a failure is logged. */
  async function safeFlush(): Promise<void> {
    try {
      await metrics.flush();
      const now = clock.now();
      if (cluster.busStatus() === 'up' && now - lastLostNodeSweep >= LOST_NODE_SWEEP_MS) {
        lastLostNodeSweep = now;
        await endConnectionsOfLostNodes('node lost');
      }
      if (now - lastConnectionPrune >= HOUR_MS) await pruneConnections(now);
    } catch (err) {
      logger.error({ err }, 'observability: metrics flush failed');
    }
  }

  return {
    metrics,

    /**
     * On start: connections still open in the log belong to a previous run that ended without
     * closing them (the process died), so they end now; old closed ones beyond the usage horizon go.
     */
    async start(): Promise<void> {
      await endConnectionsOfLostNodes('server stopped');
      await pruneConnections(clock.now());
      if (!enabled) return;
      flushTimer = setInterval(() => void safeFlush(), METRICS_FLUSH_MS);
      flushTimer.unref();
    },

    /** At shutdown, before the database closes: what was recorded and counted is written. */
    async stop(): Promise<void> {
      clearInterval(flushTimer);
      await writing;
      await safeFlush();
    },

    /** A runtime request answered 2xx (the hot path: one map update). */
    requestServed(scope: EnvironmentScope): void {
      if (enabled) metrics.count(scope, 'requests');
    },

    /** A runtime request answered 4xx or 5xx after its credential was accepted. */
    requestFailed(failed: FailedRequest): void {
      if (!enabled) return;
      metrics.count(failed.scope, 'requests');
      metrics.count(failed.scope, 'errors');
      const failure = {
        id: ids.next('err'),
        ...scopeValues(failed.scope),
        requestId: failed.requestId,
        status: failed.error.status,
        code: failed.error.code,
        message: failed.error.message,
        method: failed.method,
        route: failed.route,
        credential: failed.credential,
      };
      const at = clock.now();
      const prune = ++errorsSincePrune >= PRUNE_ERRORS_EVERY;
      if (prune) errorsSincePrune = 0;
      record(
        'an error answer',
        () =>
          store.transaction(async (tx) => {
            await tx.insert(errorLog).values({ ...failure, occurredAt: at });
            if (prune) await keepNewest(tx, errorLog, failed.scope, ERROR_RETENTION);
          }),
        // After the commit: whoever hears of it can read it.
        () => events.emit('request.failed', { ...failure, at }),
      );
    },

    /** Writes what was recorded and counted now (a backup takes it; tests read through the routes, which merge). */
    async flush(): Promise<void> {
      await writing;
      await safeFlush();
    },
  };
}

export type ObservabilityRecorder = ReturnType<typeof createObservabilityRecorder>;
