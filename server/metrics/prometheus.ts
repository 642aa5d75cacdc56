import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Store } from '../../db/store.js';
import type { Cluster } from '../cluster/cluster.js';
import type { EventBus } from '../events/bus.js';
import { pendingDeliveriesCounter } from '../webhooks/queue-depth.js';
import { requestMetrics } from './http-requests.js';
import { processMetrics } from './process-metrics.js';
import type { MetricSink } from './sink.js';

/** How long a scrape waits for the store's answers (its ping, the webhook queue's count) before leaving them out. */
const STORE_READ_TIMEOUT_MS = 1_000;

/** Seconds; from a fast in-memory answer to the 5 s a webhook attempt may take. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds from a delivery's queueing to its first attempt: immediate, or held up by a busy lane or a backlog. */
const QUEUE_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), STORE_READ_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export interface PrometheusParts {
  store: Store;
  cluster: Cluster;
  events: EventBus;
}

/**
 * One server's metrics, in a registry of its own (two servers in one process count apart): what `/metrics` on the
 * metrics listener answers. Labels are bounded: route templates, methods, statuses, environments, kinds and
 * outcomes, never an id. Each node counts what happens on it (what it serves, sends and attempts); the store's and
 * the webhook queue's gauges are the same on every node of one database.
 */
export function createPrometheusMetrics({ store, cluster, events }: PrometheusParts) {
  const registry = new Registry();
  const unsubscribe: (() => void)[] = [];
  const registers = [registry];
  processMetrics(); // started with the first server, so its GC and event-loop figures cover the time before a scrape
  const requestDuration = new Histogram({
    name: 'switchboard_http_request_duration_seconds',
    help: 'HTTP requests answered, by route template, method and status, and how long each took.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });

  const openSockets = new Gauge({
    name: 'switchboard_websockets_open',
    help: 'WebSockets admitted and open on this node, by kind (realtime, signaling) and environment.',
    labelNames: ['kind', 'environment'] as const,
    registers,
  });
  unsubscribe.push(
    events.onLocal('connection.opened', (c) => openSockets.inc({ kind: c.kind, environment: c.environment })),
    events.onLocal('connection.closed', (c) => openSockets.dec({ kind: c.kind, environment: c.environment })),
  );
  const refusedSockets = new Counter({
    name: 'switchboard_websockets_refused_total',
    help: "WebSockets closed with 1013 at a limit: the server's (--max-websockets) or an environment's.",
    labelNames: ['limit'] as const,
    registers,
  });
  // Present from the start at 0, so that rate() sees the first refusal.
  refusedSockets.inc({ limit: 'server' }, 0);
  refusedSockets.inc({ limit: 'environment' }, 0);

  const messages = new Counter({
    name: 'switchboard_chat_messages_total',
    help: 'Chat messages stored by this node, by environment.',
    labelNames: ['environment'] as const,
    registers,
  });
  unsubscribe.push(
    events.onLocal('chat', (e) => {
      if (e.type === 'message.created') messages.inc({ environment: e.environment });
    }),
  );
  const framesSent = new Counter({
    name: 'switchboard_realtime_frames_sent_total',
    help: 'Realtime WebSocket frames of events written by this node (a frame carries one event or several).',
    registers,
  });

  const webhookAttempts = new Counter({
    name: 'switchboard_webhook_attempts_total',
    help: 'Webhook delivery attempts recorded by this node, by outcome (succeeded: a 2xx answer; failed).',
    labelNames: ['outcome'] as const,
    registers,
  });
  webhookAttempts.inc({ outcome: 'succeeded' }, 0);
  webhookAttempts.inc({ outcome: 'failed' }, 0);
  const firstAttemptLatency = new Histogram({
    name: 'switchboard_webhook_first_attempt_latency_seconds',
    help: "Time from a delivery's queueing to its first attempt, on the node that made it.",
    buckets: QUEUE_BUCKETS,
    registers,
  });
  unsubscribe.push(
    events.onLocal('webhook.attempted', (e) => {
      webhookAttempts.inc({ outcome: e.succeeded ? 'succeeded' : 'failed' });
      if (e.attempt === 1) firstAttemptLatency.observe(Math.max(0, e.at - e.queuedAt) / 1000);
    }),
  );
  const countPending = pendingDeliveriesCounter(store.db);
  new Gauge({
    name: 'switchboard_webhook_deliveries_pending',
    help: 'Webhook deliveries waiting for an attempt (first or retry) in the store: every node of a database counts the same queue.',
    registers,
    async collect() {
      try {
        this.set(await withTimeout(countPending()));
      } catch {
        // The store is down or slow: switchboard_store_up says so; no stale figure.
        this.reset();
      }
    },
  });

  const transactionDuration = new Histogram({
    name: 'switchboard_store_transaction_duration_seconds',
    help: 'Store transactions, by outcome (committed, failed), and how long each took from the call, its wait for a connection included.',
    labelNames: ['outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const committed = transactionDuration.labels({ outcome: 'committed' });
  const failed = transactionDuration.labels({ outcome: 'failed' });
  store.observeTransactions((seconds, ok) => (ok ? committed : failed).observe(seconds));
  new Gauge({
    name: 'switchboard_store_up',
    help: 'Whether the store answered a trivial query within a second at this scrape (1) or not (0).',
    labelNames: ['store'] as const,
    registers,
    async collect() {
      const up = await withTimeout(store.ping()).then(
        () => 1,
        () => 0,
      );
      this.set({ store: store.dialect }, up);
    },
  });
  new Gauge({
    name: 'switchboard_store_connections',
    help: "The store's connections by state: busy, idle, and max (SQLite: its one writer; PostgreSQL: the pool).",
    labelNames: ['state'] as const,
    registers,
    collect() {
      const use = store.connections();
      this.set({ state: 'busy' }, use.busy);
      this.set({ state: 'idle' }, use.open - use.busy);
      this.set({ state: 'max' }, use.max);
    },
  });
  new Gauge({
    name: 'switchboard_store_waiting',
    help: 'Callers waiting for a store connection now.',
    registers,
    collect() {
      this.set(store.connections().waiting);
    },
  });

  new Gauge({
    name: 'switchboard_bus_state',
    help: 'The bus between the nodes (Redis): 1 for its state now, one of alone (no Redis), up or down (lost).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const now = cluster.busStatus();
      for (const state of ['alone', 'up', 'down'] as const) this.set({ state }, state === now ? 1 : 0);
    },
  });

  const sink: MetricSink = {
    webSocketRefused: (limit) => refusedSockets.inc({ limit }),
    realtimeFramesSent: (frames) => {
      if (frames > 0) framesSent.inc(frames);
    },
  };

  return {
    registry,
    sink,
    /** Express middleware timing every request: mounted first. */
    requests: requestMetrics(requestDuration),
    /** The exposition, in Prometheus' text format. */
    async exposition(): Promise<{ contentType: string; text: string }> {
      // The server's metrics beside the process's (shared by every server of the process: process-metrics.ts).
      const exposed = Registry.merge([processMetrics(), registry]);
      return { contentType: exposed.contentType, text: await exposed.metrics() };
    },
    close(): void {
      for (const stop of unsubscribe) stop();
      store.observeTransactions(undefined);
      registry.clear();
    },
  };
}

export type PrometheusMetrics = ReturnType<typeof createPrometheusMetrics>;
