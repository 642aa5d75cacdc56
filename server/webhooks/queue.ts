import { and, asc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import { preparedInsert } from '../../db/prepared-insert.js';
import type { Environment } from '../../db/schema/environment.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/webhooks.js';
import { inScopePrepared, scopeValues } from '../../db/scope.js';
import { SYSTEM_ACTOR } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import { toIso } from '../clock.js';
import type { Executor, Infrastructure } from '../context.js';
import { upperEnvironment } from '../environments.js';
import type { CatalogueEvent } from '../events/bus.js';
import { AUTO_DISABLE_AFTER_FAILURES, nextAttemptAfterFailure } from './policy.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** What one HTTP attempt came to, as the worker reports it. */
export interface AttemptOutcome {
  attemptedAt: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** The headers sent, or null when nothing was (a refused target). */
  requestHeaders: Record<string, string> | null;
  responseBody: string | null;
}

export const isSuccess = (outcome: AttemptOutcome) =>
  outcome.error === null && outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;

/** Whether an endpoint takes events of `type`: an empty list means every type. */
export const subscribesTo = (endpoint: Pick<EndpointRow, 'events'>, type: string) =>
  endpoint.events.length === 0 || endpoint.events.includes(type);

/**
 * The durable delivery queue in SQLite: what is queued survives a restart, and a delivery marked
 * SUCCEEDED is never sent again by the worker. Each change is one synchronous transaction.
 */
export function createDeliveryQueue({ db, clock, ids, logger, events }: Infrastructure, audit: AuditService) {
  /** The envelope of spec 2.8, serialised once: these bytes are what every attempt sends and signs. */
  function envelope(type: string, projectId: string, environment: Environment, data: Record<string, unknown>) {
    const eventId = ids.next('evt');
    const createdAt = clock.now();
    const payload = JSON.stringify({
      id: eventId,
      type,
      projectId,
      environment: upperEnvironment(environment),
      createdAt: toIso(createdAt),
      data,
    });
    return { eventId, createdAt, payload };
  }

  function insertDeliveries(
    endpoints: Pick<EndpointRow, 'id' | 'projectId' | 'environment'>[],
    type: string,
    event: ReturnType<typeof envelope>,
  ): DeliveryRow[] {
    const rows: DeliveryRow[] = endpoints.map((endpoint) => ({
      id: ids.next('whd'),
      ...scopeValues(endpoint),
      endpointId: endpoint.id,
      eventId: event.eventId,
      eventType: type,
      payload: event.payload,
      status: 'PENDING',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: event.createdAt,
      resends: 0,
      createdAt: event.createdAt,
      updatedAt: event.createdAt,
    }));
    for (const row of rows) insertDelivery.run(row);
    return rows;
  }

  /** Runs for every catalogue event (every chat message): prepared once. */
  const enabledEndpoints = db
    .select({
      id: webhookEndpoints.id,
      projectId: webhookEndpoints.projectId,
      environment: webhookEndpoints.environment,
      events: webhookEndpoints.events,
    })
    .from(webhookEndpoints)
    .where(inScopePrepared(webhookEndpoints, eq(webhookEndpoints.enabled, true)))
    .prepare();

  // The worker's queries, run for every delivery and attempt (hundreds a second under load): prepared once, so
  // that drizzle does not build their SQL again each time.
  const dueEndpoints = db
    .selectDistinct({ endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'PENDING'), lte(webhookDeliveries.nextAttemptAt, sql.placeholder('now'))))
    .prepare();
  const dueOfEndpoint = db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, sql.placeholder('endpointId')),
        eq(webhookDeliveries.status, 'PENDING'),
        lte(webhookDeliveries.nextAttemptAt, sql.placeholder('now')),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
    .limit(sql.placeholder('limit'))
    .prepare();
  const endpointById = db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, sql.placeholder('id')))
    .prepare();
  const deliveryById = db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.id, sql.placeholder('id')))
    .prepare();
  const insertDelivery = preparedInsert(db, webhookDeliveries);
  const insertAttempt = preparedInsert(db, webhookAttempts);
  // A value given at run time, as is: these columns store what they are given (text and integers).
  const given = (name: string) => sql`${sql.placeholder(name)}`;
  const updateAfterAttempt = db
    .update(webhookDeliveries)
    .set({
      status: given('status'),
      attempts: given('attempts'),
      lastStatusCode: given('lastStatusCode'),
      lastError: given('lastError'),
      nextAttemptAt: given('nextAttemptAt'),
      updatedAt: given('updatedAt'),
    })
    .where(eq(webhookDeliveries.id, sql.placeholder('id')))
    .prepare();

  /** Ends the pending deliveries of an endpoint that stopped taking events (disabled). */
  function failPending(tx: Executor, endpointId: string, reason: string, now: number): void {
    tx.update(webhookDeliveries)
      .set({ status: 'FAILED', nextAttemptAt: null, lastError: reason, updatedAt: now })
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'PENDING')))
      .run();
  }

  return {
    failPending,

    /**
     * Queues one delivery of the event per matching endpoint: first the enabled endpoints of the
     * event's project and environment (so no other environment's endpoint is ever considered),
     * then those subscribed to its type. Nothing at all is written when none matches.
     */
    enqueueEvent(event: CatalogueEvent): DeliveryRow[] {
      const scope = { projectId: event.projectId, environment: event.environment };
      const endpoints = enabledEndpoints.all(scope).filter((endpoint) => subscribesTo(endpoint, event.type));
      if (endpoints.length === 0) return [];
      const built = envelope(event.type, event.projectId, event.environment, event.data);
      return db.transaction(() => insertDeliveries(endpoints, event.type, built));
    },

    /** Queues a new event for one endpoint only, whatever its subscriptions (the test-event route). */
    enqueueFor(endpoint: EndpointRow, type: string, data: Record<string, unknown>): DeliveryRow {
      const built = envelope(type, endpoint.projectId, endpoint.environment, data);
      return db.transaction(() => insertDeliveries([endpoint], type, built))[0];
    },

    /** Removes finished deliveries (and their attempts) last changed before `before`; answers how many. */
    pruneFinished(before: number): number {
      // The finished statuses by name, not `<> 'PENDING'`: only then does SQLite use the (status, updated_at) index.
      const finished = inArray(webhookDeliveries.status, ['SUCCEEDED', 'FAILED']);
      return db
        .delete(webhookDeliveries)
        .where(and(finished, lt(webhookDeliveries.updatedAt, before)))
        .run().changes;
    },

    /**
     * Ids of the endpoints with a delivery due by now. The worker's view spans every project and
     * environment, as its job does; what users read goes through `inScope` in the service.
     */
    dueEndpointIds(now: number): string[] {
      return dueEndpoints.all({ now }).map((row) => row.endpointId);
    },

    /** Up to `limit` due deliveries of one endpoint, earliest first, leaving out those in flight. */
    dueDeliveries(endpointId: string, now: number, inFlight: string[], limit: number): DeliveryRow[] {
      // Those in flight are still PENDING: read as many more, and drop them here.
      const due = dueOfEndpoint.all({ endpointId, now, limit: limit + inFlight.length });
      return due.filter((delivery) => !inFlight.includes(delivery.id)).slice(0, limit);
    },

    /**
     * The delivery, if it still waits for the attempt it was read for (`read`): not sent since by another pass,
     * not finished, not deleted. One read by primary key.
     */
    stillDue(read: Pick<DeliveryRow, 'id' | 'attempts'>, now: number): DeliveryRow | undefined {
      const delivery = deliveryById.get({ id: read.id });
      if (delivery?.status !== 'PENDING' || delivery.attempts !== read.attempts) return undefined;
      return delivery.nextAttemptAt !== null && delivery.nextAttemptAt <= now ? delivery : undefined;
    },

    endpoint(endpointId: string): EndpointRow | undefined {
      return endpointById.get({ id: endpointId });
    },

    /**
     * Records an attempt and what follows from it, in one transaction: the delivery succeeds, waits
     * for its next retry or fails; the endpoint's run of failures is reset or grows, and at
     * AUTO_DISABLE_AFTER_FAILURES the endpoint is disabled and its pending deliveries fail. A resend
     * asked for while the attempt was in flight (`resends` moved on since `launched` was read) stands:
     * the delivery stays due when the resend made it due, whatever this attempt came to.
     */
    recordAttempt(launched: Pick<DeliveryRow, 'id' | 'resends'>, outcome: AttemptOutcome): void {
      const deliveryId = launched.id;
      const now = clock.now();
      let recorded: { delivery: DeliveryRow; attempt: number; status: DeliveryRow['status'] } | undefined;
      db.transaction((tx) => {
        const delivery = deliveryById.get({ id: deliveryId });
        // Deleted with its endpoint or project while the attempt was in flight.
        if (!delivery) return;
        const endpoint = endpointById.get({ id: delivery.endpointId });
        if (!endpoint) return;
        const number = delivery.attempts + 1;
        insertAttempt.run({ deliveryId, number, ...outcome });

        const succeeded = isSuccess(outcome);
        const resentDueAt =
          delivery.resends !== launched.resends && delivery.status === 'PENDING' ? delivery.nextAttemptAt : null;
        const nextAttemptAt = !endpoint.enabled
          ? null
          : (resentDueAt ?? (succeeded ? null : nextAttemptAfterFailure(number, now)));
        const status = nextAttemptAt !== null ? 'PENDING' : succeeded ? 'SUCCEEDED' : 'FAILED';
        recorded = { delivery, attempt: number, status };
        updateAfterAttempt.run({
          id: deliveryId,
          status,
          attempts: number,
          lastStatusCode: outcome.statusCode,
          lastError: succeeded ? null : outcome.error,
          nextAttemptAt,
          updatedAt: now,
        });

        if (succeeded) {
          if (endpoint.consecutiveFailures !== 0) {
            tx.update(webhookEndpoints)
              .set({ consecutiveFailures: 0 })
              .where(eq(webhookEndpoints.id, endpoint.id))
              .run();
          }
          return;
        }
        const failures = endpoint.consecutiveFailures + 1;
        const disable = endpoint.enabled && failures >= AUTO_DISABLE_AFTER_FAILURES;
        const reason = `Disabled after ${failures} consecutive failed attempts.`;
        tx.update(webhookEndpoints)
          .set({
            consecutiveFailures: failures,
            ...(disable ? { enabled: false, disabledAt: now, disabledReason: reason, updatedAt: now } : {}),
          })
          .where(eq(webhookEndpoints.id, endpoint.id))
          .run();
        if (!disable) return;
        failPending(tx, endpoint.id, 'Endpoint disabled: retries stopped.', now);
        audit.record(tx, {
          projectId: endpoint.projectId,
          actor: SYSTEM_ACTOR,
          action: 'webhook.disabled',
          target: { type: 'webhook', id: endpoint.id },
          environment: endpoint.environment,
          details: { reason, consecutiveFailures: failures },
        });
        logger.warn({ webhookId: endpoint.id, projectId: endpoint.projectId, failures }, 'webhook endpoint disabled');
      });
      // After the commit, like every event: metrics count attempts by outcome, `tail` shows them.
      if (!recorded) return;
      const { delivery, attempt, status } = recorded;
      events.emit('webhook.attempted', {
        ...scopeValues(delivery),
        deliveryId: delivery.id,
        webhookId: delivery.endpointId,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        attempt,
        status,
        statusCode: outcome.statusCode,
        error: outcome.error,
        succeeded: isSuccess(outcome),
        at: outcome.attemptedAt,
      });
    },
  };
}

export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;
