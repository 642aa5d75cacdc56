import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns.js';
import { environmentScoped } from './environment-scoped.js';

/** A URL that receives the catalogue events of one environment of a project. */
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    ...environmentScoped(),
    url: text('url').notNull(),
    /** Subscribed catalogue types; empty means every type. */
    events: text('events', { mode: 'json' }).$type<string[]>().notNull(),
    /**
     * The signing secret, AES-256-GCM encrypted with the server's webhook-secrets key: the data folder's key file on
     * SQLite, derived from the secret key on PostgreSQL (server/webhooks/secret-box.ts).
     */
    secretCiphertext: text('secret_ciphertext').notNull(),
    /**
     * The id of the key that sealed it (a fingerprint, never the key): what a secret key rotation seals again
     * (server/secret-key-rotation/). Null in rows from before key ids, which the server fills at start.
     */
    secretKeyId: text('secret_key_id'),
    enabled: integer('enabled', { mode: 'boolean' }).notNull(),
    /** Failed attempts since the last success, across all the endpoint's deliveries; 50 disables it. */
    consecutiveFailures: integer('consecutive_failures').notNull(),
    disabledAt: timestamp('disabled_at'),
    disabledReason: text('disabled_reason'),
    createdById: text('created_by_id'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_scope_idx').on(t.projectId, t.environment)],
);

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event on its way to one endpoint: the durable queue. A row is PENDING until an attempt succeeds
 * or the retries run out; `payload` holds the exact body bytes, so every attempt sends the same ones.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    ...environmentScoped(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The JSON envelope exactly as it is POSTed. */
    payload: text('payload').notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    /** When the worker next sends it; null once SUCCEEDED or FAILED. */
    nextAttemptAt: timestamp('next_attempt_at'),
    /** How many resends were asked for: an attempt in flight across one does not overwrite it. */
    resends: integer('resends').notNull().default(0),
    /**
     * The worker (`node_` id, one per server process) that claimed the delivery for an attempt, and until when: no
     * other claims it before then. Cleared when the attempt is recorded, or given up by a server that stops; a server
     * that dies mid-attempt leaves it to expire (server/webhooks/worker.ts).
     */
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at'),
    /**
     * The W3C `traceparent` of the span that emitted the delivery's event, when the server traces (OpenTelemetry):
     * each attempt is a child of it, however long the delivery waited in the queue, and sends it on to the receiver.
     */
    traceParent: text('trace_parent'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.status, t.nextAttemptAt),
    index('webhook_deliveries_log_idx').on(t.endpointId, t.id),
    // The delivery log filtered by status or by event type, newest first, read a page at a time from an index.
    index('webhook_deliveries_log_status_idx').on(t.endpointId, t.status, t.id),
    index('webhook_deliveries_log_type_idx').on(t.endpointId, t.eventType, t.id),
    // For the retention sweep: finished deliveries by age.
    index('webhook_deliveries_finished_idx').on(t.status, t.updatedAt),
    // An endpoint's claimed deliveries, counted against its lane by every claim: only those leased are in it.
    index('webhook_deliveries_lease_idx')
      .on(t.endpointId, t.leaseExpiresAt)
      .where(sql`${t.leaseExpiresAt} IS NOT NULL`),
  ],
);

/** Each HTTP attempt of a delivery, for the delivery log. */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    /** 1 for the first attempt. */
    number: integer('number').notNull(),
    attemptedAt: timestamp('attempted_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** Null when no response came (timeout, connection failure, refused target). */
    statusCode: integer('status_code'),
    error: text('error'),
    /**
     * The request headers exactly as sent (the signature with this attempt's timestamp); null when
     * nothing was sent (a refused target) and for attempts logged before they were kept.
     */
    requestHeaders: text('request_headers', { mode: 'json' }).$type<Record<string, string>>(),
    /** The first bytes of the response body (up to 4 KB), as text. */
    responseBody: text('response_body'),
    /**
     * Set when a fault injected into the environment shaped this attempt (server/faults): e.g. `webhook.failure`
     * (not sent, recorded as failed), `webhook.duplicate` (a second copy). Null for a real attempt.
     */
    injectedFault: text('injected_fault'),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.number] })],
);
