import { and, asc, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { prepareOnFirstUse } from '../../db/prepare-on-first-use.js';
import { ENVIRONMENTS, type Environment } from '../../db/schema/environment.js';
import { environmentClocks } from '../../db/schema/test-tools.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/webhooks.js';
import { type EnvironmentScope, inScopePrepared, scopeKey, scopeValues } from '../../db/scope.js';
import type { Queries } from '../../db/store.js';
import { SYSTEM_ACTOR } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import { toIso } from '../clock.js';
import type { Infrastructure } from '../context.js';
import { upperEnvironment } from '../environments.js';
import type { CatalogueEvent } from '../events/bus.js';
import type { EnvironmentClocks } from '../test-clock/clocks.js';
import { AUTO_DISABLE_AFTER_FAILURES, DELIVERY_LEASE_MS, ENDPOINT_CLAIM, nextAttemptAfterFailure } from './policy.js';

/**
 * Times of deliveries and attempts (created, attempted, next attempt due) are their environment's (its test clock's,
 * server/test-clock); leases are the server's, real time, as they hold between servers.
 */

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
  /** The fault injected into the environment that shaped this attempt (server/faults), if any. */
  injectedFault?: string | null;
}

export const isSuccess = (outcome: AttemptOutcome) =>
  outcome.error === null && outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;

/** What `recordAttempt` wrote, told after the commit; `disabledAfter` the failures that disabled the endpoint. */
interface RecordedAttempt {
  delivery: DeliveryRow;
  attempt: number;
  status: DeliveryRow['status'];
  disabledAfter?: number;
}

/** The delivery an attempt was made of, as the worker claimed it. */
type LaunchedDelivery = Pick<
  DeliveryRow,
  'id' | 'endpointId' | 'projectId' | 'environment' | 'resends' | 'leaseOwner' | 'nextAttemptAt'
>;

/** A catalogue event to queue, with the `traceparent` of the span that emitted it when the server traces. */
export interface QueuedEvent extends CatalogueEvent {
  traceParent?: string;
}

/** Whether an endpoint takes events of `type`: an empty list means every type. */
export const subscribesTo = (endpoint: Pick<EndpointRow, 'events'>, type: string) =>
  endpoint.events.length === 0 || endpoint.events.includes(type);

/**
 * The durable delivery queue in the store: what is queued survives a restart, and a delivery marked
 * SUCCEEDED is never sent again by the worker. Each change is one transaction.
 */
/** Rows a multi-row insert of deliveries writes at most (16 columns each: well within both stores' parameter limits). */
const INSERT_CHUNK = 200;

/** Scopes whose enabled endpoints are kept in memory; past it the cache starts over (a safety net). */
const MAX_CACHED_SCOPES = 10_000;

export function createDeliveryQueue(
  { store, clock, ids, logger, events, cluster, tracing }: Infrastructure,
  audit: AuditService,
  clocks: EnvironmentClocks,
) {
  const { db } = store;
  /**
   * The envelope of spec 2.8, serialised once: these bytes are what every attempt sends and signs. `createdAt` is
   * the environment's now.
   */
  function envelope(
    type: string,
    projectId: string,
    environment: Environment,
    data: Record<string, unknown>,
    createdAt: number,
  ) {
    const eventId = ids.next('evt');
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

  /** The new deliveries of one event, one per endpoint. */
  function deliveryRows(
    endpoints: Pick<EndpointRow, 'id' | 'projectId' | 'environment'>[],
    type: string,
    event: ReturnType<typeof envelope>,
    traceParent: string | undefined,
  ): DeliveryRow[] {
    return endpoints.map((endpoint) => ({
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
      leaseOwner: null,
      leaseExpiresAt: null,
      traceParent: traceParent ?? null,
      createdAt: event.createdAt,
      updatedAt: event.createdAt,
    }));
  }

  /** Call inside a transaction. */
  async function insertDeliveries(
    endpoints: Pick<EndpointRow, 'id' | 'projectId' | 'environment'>[],
    type: string,
    event: ReturnType<typeof envelope>,
    traceParent: string | undefined,
  ): Promise<DeliveryRow[]> {
    const rows = deliveryRows(endpoints, type, event, traceParent);
    for (const row of rows) await insertDelivery(row);
    return rows;
  }

  /** Runs for every catalogue event (every chat message): prepared once, outside transactions and in them. */
  const prepareEnabledEndpoints = (queries: Queries) =>
    queries
      .select({
        id: webhookEndpoints.id,
        projectId: webhookEndpoints.projectId,
        environment: webhookEndpoints.environment,
        events: webhookEndpoints.events,
      })
      .from(webhookEndpoints)
      .where(inScopePrepared(webhookEndpoints, eq(webhookEndpoints.enabled, true)))
      .prepare();
  const enabledEndpoints = prepareOnFirstUse(() => prepareEnabledEndpoints(db));
  type EnabledEndpoint = Awaited<ReturnType<typeof enabledEndpoints.execute>>[number];

  /**
   * The enabled endpoints of each scope, kept in memory: every event asks (a message POST each), and most scopes have
   * none. Exact on one server: every change to which endpoints are enabled or what they subscribe to calls
   * `forgetEndpoints` after its commit (the webhook service; auto-disable below; a project's deletion), which the
   * bus carries to every node, and a read that such a change overtook is not kept. Saves a query per event: on PostgreSQL, one of a message POST's two round trips.
   */
  const endpointsByScope = new Map<string, EnabledEndpoint[]>();
  /** How often each scope's endpoints were forgotten: a read kept only if this did not move while it ran. */
  const forgotten = new Map<string, number>();
  async function enabledEndpointsOf(scope: EnvironmentScope): Promise<EnabledEndpoint[]> {
    const key = scopeKey(scope);
    const trusted = cluster.busStatus() !== 'down';
    const cached = trusted ? endpointsByScope.get(key) : undefined;
    if (cached) return cached;
    const before = forgotten.get(key) ?? 0;
    const rows = await enabledEndpoints.execute({ ...scope });
    if (trusted && (forgotten.get(key) ?? 0) === before) {
      if (endpointsByScope.size >= MAX_CACHED_SCOPES) endpointsByScope.clear();
      endpointsByScope.set(key, rows);
    }
    return rows;
  }
  function forgetHere(scope: EnvironmentScope): void {
    const key = scopeKey(scope);
    endpointsByScope.delete(key);
    forgotten.set(key, (forgotten.get(key) ?? 0) + 1);
  }
  /** After a commit that changed the scope's endpoints: forgotten here at once, and on every other node. */
  function forgetEndpoints({ projectId, environment }: EnvironmentScope): void {
    events.emit('webhook_endpoints.changed', { projectId, environment });
  }
  events.on('webhook_endpoints.changed', forgetHere);
  events.on('project.deleted', ({ projectId }) => {
    for (const environment of ENVIRONMENTS) forgetHere({ projectId, environment });
  });
  // Another node's changes are heard through the bus: while it is lost the cache is not used (enabledEndpointsOf),
  // and it starts empty when the bus is back.
  cluster.onBusChange(() => {
    for (const key of endpointsByScope.keys()) forgotten.set(key, (forgotten.get(key) ?? 0) + 1);
    endpointsByScope.clear();
  });

  // A value given at run time, as is: these columns store what they are given (text and integers).
  const given = (name: string) => sql`${sql.placeholder(name)}`;
  /**
   * How far the delivery's environment runs ahead of real time (its test clock; 0 without one), and the most any
   * does: the first for the exact test, the second a bound on `next_attempt_at` that keeps the due index in use.
   * Named in full, as the outer table's columns must not be taken for the inner's.
   */
  const offsetOfDelivery = sql`coalesce((select ec.offset_ms from environment_clocks ec where ec.project_id = ${sql.raw('"webhook_deliveries"."project_id"')} and ec.environment = ${sql.raw('"webhook_deliveries"."environment"')}), 0)`;
  const largestOffset = sql`(select coalesce(max(${environmentClocks.offsetMs}), 0) from ${environmentClocks})`;
  /**
   * Deliveries due by their environment's now (real `now` plus its clock's offset) that no worker holds: claimed by
   * none, or by one whose lease has run out by the server's `now`.
   */
  const dueAndFree = (now: ReturnType<typeof sql.placeholder>) =>
    and(
      eq(webhookDeliveries.status, 'PENDING'),
      lte(webhookDeliveries.nextAttemptAt, sql`${now} + ${largestOffset}`),
      lte(sql`${webhookDeliveries.nextAttemptAt} - ${offsetOfDelivery}`, now),
      or(isNull(webhookDeliveries.leaseExpiresAt), lte(webhookDeliveries.leaseExpiresAt, now)),
    );

  // The worker's reads, run for every delivery and attempt (hundreds a second under load): prepared once, so
  // that drizzle does not build their SQL again each time. Prepared on the store's reads, so outside transactions
  // only: inside one, queries go through the transaction.
  const dueEndpoints = prepareOnFirstUse(() =>
    db
      .selectDistinct({ endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .where(dueAndFree(sql.placeholder('now')))
      .prepare(),
  );
  const prepareEndpointById = (queries: Queries) =>
    queries
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, sql.placeholder('id')))
      .prepare();
  const prepareDeliveryById = (queries: Queries) =>
    queries
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, sql.placeholder('id')))
      .prepare();
  /**
   * The lane's claim (`claimDue`), prepared once. A worker holds at most ENDPOINT_CLAIM of an endpoint's deliveries
   * under an unexpired lease (and sends ENDPOINT_CONCURRENCY of them at a time), so that each server added takes its
   * share of a backlog; the claims of one endpoint take turns across servers (Store.claimer).
   */
  const ofEndpoint = eq(webhookDeliveries.endpointId, sql.placeholder('endpointId'));
  const claimDeliveries = store.claimer(webhookDeliveries, {
    key: webhookDeliveries.id,
    free: and(ofEndpoint, dueAndFree(sql.placeholder('now'))),
    orderBy: [asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id)],
    set: { leaseOwner: given('owner'), leaseExpiresAt: given('leaseExpiresAt') },
    limit: ENDPOINT_CLAIM,
    held: and(
      ofEndpoint,
      eq(webhookDeliveries.leaseOwner, sql.placeholder('owner')),
      gt(webhookDeliveries.leaseExpiresAt, sql.placeholder('now')),
    ),
  });
  const endpointById = prepareOnFirstUse(() => prepareEndpointById(db));
  const insertDelivery = store.rowInsert(webhookDeliveries);
  const insertAttempt = store.rowInsert(webhookAttempts);

  /**
   * What the queue runs in its transactions for every event and every attempt, prepared on the transaction's
   * handle.
   */
  const prepareInTransaction = (tx: Queries) => ({
    enabledEndpoints: prepareEnabledEndpoints(tx),
    deliveryById: prepareDeliveryById(tx),
    endpointById: prepareEndpointById(tx),
    updateAfterAttempt: tx
      .update(webhookDeliveries)
      .set({
        status: given('status'),
        attempts: given('attempts'),
        lastStatusCode: given('lastStatusCode'),
        lastError: given('lastError'),
        nextAttemptAt: given('nextAttemptAt'),
        leaseOwner: given('leaseOwner'),
        leaseExpiresAt: given('leaseExpiresAt'),
        updatedAt: given('updatedAt'),
      })
      .where(eq(webhookDeliveries.id, sql.placeholder('id')))
      .prepare(),
    /**
     * One more failure in the endpoint's run, counted in SQL in the recording's transaction: every server records
     * attempts of the endpoint, and each must count (not a value read earlier and written back).
     */
    countFailure: tx
      .update(webhookEndpoints)
      .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1` })
      .where(eq(webhookEndpoints.id, sql.placeholder('id')))
      .returning({ failures: webhookEndpoints.consecutiveFailures, enabled: webhookEndpoints.enabled })
      .prepare(),
  });
  /**
   * Kept per handle: SQLite runs every transaction on its one writer, so they are prepared once there (recording an
   * attempt took 2.7 times the CPU when drizzle built them each time); on PostgreSQL each transaction has its own.
   */
  const preparedIn = new WeakMap<Queries, ReturnType<typeof prepareInTransaction>>();
  function statementsIn(tx: Queries) {
    let statements = preparedIn.get(tx);
    if (!statements) {
      statements = prepareInTransaction(tx);
      preparedIn.set(tx, statements);
    }
    return statements;
  }

  /** Ends the pending deliveries of an endpoint that stopped taking events (disabled). Call inside a transaction. */
  async function failPending(tx: Queries, endpointId: string, reason: string, now: number): Promise<void> {
    await tx
      .update(webhookDeliveries)
      .set({ status: 'FAILED', nextAttemptAt: null, lastError: reason, updatedAt: now })
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'PENDING')));
  }

  /**
   * The attempts of one endpoint are recorded one after another: each updates the endpoint's run of failures, and
   * its lanes' transactions run at once conflict over that row. A store that runs transactions concurrently
   * (PostgreSQL) aborts all but one and runs them again; under load, one could lose again and again until it gave
   * up, and its attempt went unrecorded (and the delivery out again).
   */
  const recording = new Map<string, Promise<void>>();
  function inTurn(endpointId: string, work: () => Promise<void>): Promise<void> {
    const run = (recording.get(endpointId) ?? Promise.resolve()).then(work);
    const settled = run.catch(() => {});
    recording.set(endpointId, settled);
    void settled.then(() => {
      if (recording.get(endpointId) === settled) recording.delete(endpointId);
    });
    return run;
  }

  interface PreparedRecord {
    launched: LaunchedDelivery;
    outcome: AttemptOutcome;
    /** The environment's now, the attempt's time in it, and the time its next retry counts from. */
    now: number;
    attemptedAt: number;
    scheduledFrom: number;
  }
  /** An attempt waiting to be recorded with the others of its endpoint that finished meanwhile. */
  interface PendingRecord {
    launched: LaunchedDelivery;
    outcome: AttemptOutcome;
    settle: { resolve(): void; reject(err: unknown): void };
  }
  /** Per endpoint, the attempts that finished while its last batch was being recorded: the next batch. */
  const unrecorded = new Map<string, PendingRecord[]>();

  /**
   * Records, in one transaction, every attempt of the endpoint that finished while the one before was recorded (a
   * group commit): one transaction an attempt, one after another, held deliveries to a fast endpoint to what the
   * store could commit (issue 45: 103 a second on PostgreSQL). Within it they are recorded one after another, as
   * before, so that each sees the endpoint's run of failures as the one before left it.
   */
  async function recordBatch(endpointId: string): Promise<void> {
    const batch = unrecorded.get(endpointId) ?? [];
    unrecorded.delete(endpointId);
    if (batch.length === 0) return;
    try {
      const prepared: PreparedRecord[] = [];
      for (const pending of batch) prepared.push(await prepareRecord(pending.launched, pending.outcome));
      const recorded = await store.transaction((tx) => recordAllIn(tx, prepared));
      for (const [i, one] of recorded.entries()) {
        if (one) announceRecorded(one, prepared[i].outcome, prepared[i].attemptedAt);
      }
      for (const pending of batch) pending.settle.resolve();
    } catch (err) {
      for (const pending of batch) pending.settle.reject(err);
    }
  }

  /** What a recording needs from outside its transaction: the environment's times. */
  async function prepareRecord(launched: LaunchedDelivery, outcome: AttemptOutcome): Promise<PreparedRecord> {
    // In the environment's time, as the delivery's other times are; the signature sent kept real time.
    const offset = await clocks.offset(launched);
    const now = clock.now() + offset;
    const attemptedAt = outcome.attemptedAt + offset;
    /**
     * Where an environment's test clock was advanced, the next retry counts from when this attempt was due rather
     * than from now: retries that an advance made due then go out one after another at once, and advancing the clock
     * by the whole schedule runs it to its end. On real time, from now (a server that was down does not burst).
     */
    const scheduledFrom = offset > 0 && launched.nextAttemptAt !== null ? Math.min(launched.nextAttemptAt, now) : now;
    return { launched, outcome, now, attemptedAt, scheduledFrom };
  }

  /**
   * Records a batch of one endpoint's attempts in the transaction, in their order: for each, undefined when its
   * delivery or endpoint is gone. The deliveries are read in one query and the endpoint once, its run of failures
   * followed in memory as each attempt changes it; the attempts are inserted in one statement. On PostgreSQL, a
   * round trip an attempt (its delivery's update) rather than four.
   */
  async function recordAllIn(tx: Queries, batch: PreparedRecord[]): Promise<(RecordedAttempt | undefined)[]> {
    const { endpointById, updateAfterAttempt, countFailure } = statementsIn(tx);
    const ids = [...new Set(batch.map((one) => one.launched.id))];
    const deliveries = new Map(
      (await tx.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids))).map((row) => [row.id, row]),
    );
    let [endpoint] = await endpointById.execute({ id: batch[0].launched.endpointId });
    const attempts: (typeof webhookAttempts.$inferInsert)[] = [];
    const results: (RecordedAttempt | undefined)[] = [];
    for (const { launched, outcome, now, attemptedAt, scheduledFrom } of batch) {
      const delivery = deliveries.get(launched.id);
      // Deleted with its endpoint or project while the attempt was in flight.
      if (!delivery || !endpoint) {
        results.push(undefined);
        continue;
      }
      const number = delivery.attempts + 1;
      attempts.push({
        deliveryId: delivery.id,
        number,
        ...outcome,
        injectedFault: outcome.injectedFault ?? null,
        attemptedAt,
      });
      const succeeded = isSuccess(outcome);
      const resentDueAt =
        delivery.resends !== launched.resends && delivery.status === 'PENDING' ? delivery.nextAttemptAt : null;
      const nextAttemptAt = !endpoint.enabled
        ? null
        : (resentDueAt ?? (succeeded ? null : nextAttemptAfterFailure(number, scheduledFrom)));
      const status: DeliveryRow['status'] = nextAttemptAt !== null ? 'PENDING' : succeeded ? 'SUCCEEDED' : 'FAILED';
      const result: RecordedAttempt = { delivery, attempt: number, status };
      // The claim ends with its attempt. One that ran out meanwhile and was taken by another worker stays theirs.
      const ours = delivery.leaseOwner === launched.leaseOwner;
      const changes = {
        status,
        attempts: number,
        lastStatusCode: outcome.statusCode,
        lastError: succeeded ? null : outcome.error,
        nextAttemptAt,
        leaseOwner: ours ? null : delivery.leaseOwner,
        leaseExpiresAt: ours ? null : delivery.leaseExpiresAt,
        updatedAt: now,
      };
      await updateAfterAttempt.execute({ id: delivery.id, ...changes });
      // A second attempt of the same delivery in the batch (a lease that ran out) counts from this one.
      deliveries.set(delivery.id, { ...delivery, ...changes });

      if (succeeded) {
        if (endpoint.consecutiveFailures !== 0) {
          await tx.update(webhookEndpoints).set({ consecutiveFailures: 0 }).where(eq(webhookEndpoints.id, endpoint.id));
          endpoint = { ...endpoint, consecutiveFailures: 0 };
        }
        results.push(result);
        continue;
      }
      const [{ failures, enabled }] = await countFailure.execute({ id: endpoint.id });
      endpoint = { ...endpoint, consecutiveFailures: failures, enabled };
      const disable = enabled && failures >= AUTO_DISABLE_AFTER_FAILURES;
      if (!disable) {
        results.push(result);
        continue;
      }
      const reason = `Disabled after ${failures} consecutive failed attempts.`;
      await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledAt: now, disabledReason: reason, updatedAt: now })
        .where(eq(webhookEndpoints.id, endpoint.id));
      endpoint = { ...endpoint, enabled: false };
      await failPending(tx, endpoint.id, 'Endpoint disabled: retries stopped.', now);
      await audit.record(tx, {
        projectId: endpoint.projectId,
        actor: SYSTEM_ACTOR,
        action: 'webhook.disabled',
        target: { type: 'webhook', id: endpoint.id },
        environment: endpoint.environment,
        details: { reason, consecutiveFailures: failures },
      });
      results.push({ ...result, disabledAfter: failures });
    }
    for (let from = 0; from < attempts.length; from += INSERT_CHUNK) {
      await tx.insert(webhookAttempts).values(attempts.slice(from, from + INSERT_CHUNK));
    }
    return results;
  }

  /** After the commit, like every event: metrics count attempts by outcome, `tail` shows them. */
  function announceRecorded(recorded: RecordedAttempt, outcome: AttemptOutcome, attemptedAt: number): void {
    const { delivery, attempt, status, disabledAfter } = recorded;
    if (disabledAfter !== undefined) {
      forgetEndpoints(delivery);
      logger.warn(
        { webhookId: delivery.endpointId, projectId: delivery.projectId, failures: disabledAfter },
        'webhook endpoint disabled',
      );
    }
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
      injectedFault: outcome.injectedFault ?? null,
      queuedAt: delivery.createdAt,
      at: attemptedAt,
    });
  }

  return {
    failPending,
    /** The environment's now (its test clock), in which the queue's times are kept. */
    environmentNow: (scope: EnvironmentScope) => clocks.now(scope),
    /** Call after the commit of any change to an endpoint's `enabled` or `events`, or its creation or deletion. */
    forgetEndpoints,

    /**
     * Queues one delivery of each event per matching endpoint: the enabled endpoints of the event's project and
     * environment (so no other environment's endpoint is ever considered), from memory (`enabledEndpointsOf`), then
     * those subscribed to its type; nothing at all is written when none matches. Many events in one multi-row insert,
     * in their order: the worker queues what was emitted while the previous batch was written (a group commit), so that
     * events queue as fast as messages are posted (issue 45: on PostgreSQL a message POST with one endpoint subscribed
     * ran at 0.17 of one without). One statement and no transaction: the endpoints are not read again inside one, so
     * a batch written as an endpoint is being disabled may queue it a delivery after the disabling failed its pending
     * ones; the worker fails such a delivery unsent when it claims it (`failDisabled`). One written as an endpoint is
     * deleted fails (its foreign key): the scopes' lists in memory are forgotten, and the worker queues its events again
     * one by one, from the database. Answers the deliveries queued, in the events' order.
     */
    async enqueueEvents(batch: readonly QueuedEvent[]): Promise<DeliveryRow[]> {
      // From memory almost always: most events go to no endpoint.
      const matchingOf: (readonly [QueuedEvent, EnabledEndpoint[]])[] = [];
      for (const event of batch) {
        const endpoints = await enabledEndpointsOf({ projectId: event.projectId, environment: event.environment });
        const matching = endpoints.filter((endpoint) => subscribesTo(endpoint, event.type));
        if (matching.length > 0) matchingOf.push([event, matching]);
      }
      if (matchingOf.length === 0) return [];
      const nowByScope = new Map<string, number>();
      const rows: DeliveryRow[] = [];
      for (const [event, matching] of matchingOf) {
        const key = scopeKey(event);
        let now = nowByScope.get(key);
        if (now === undefined) {
          now = await clocks.now(event);
          nowByScope.set(key, now);
        }
        rows.push(
          ...deliveryRows(
            matching,
            event.type,
            envelope(event.type, event.projectId, event.environment, event.data, now),
            event.traceParent,
          ),
        );
      }
      // Many rows a statement: one round trip for the batch rather than one a delivery, and no transaction around
      // the one statement that most batches take.
      try {
        if (rows.length <= INSERT_CHUNK) await store.insertRows(webhookDeliveries, rows);
        else
          await store.transaction(async () => {
            for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
              await store.insertRows(webhookDeliveries, rows.slice(start, start + INSERT_CHUNK));
            }
          });
      } catch (err) {
        // An endpoint deleted since it was read (its foreign key), whose deletion this node may not have heard of yet:
        // the events queued again (the worker tries them one by one) read their endpoints from the database.
        for (const [event] of matchingOf) forgetHere(event);
        throw err;
      }
      return rows;
    },

    /** Queues a new event for one endpoint only, whatever its subscriptions (the test-event route). */
    async enqueueFor(endpoint: EndpointRow, type: string, data: Record<string, unknown>): Promise<DeliveryRow> {
      const built = envelope(type, endpoint.projectId, endpoint.environment, data, await clocks.now(endpoint));
      // The request's span, read before the transaction's begins.
      const traceParent = tracing.traceparent();
      const [delivery] = await store.transaction(() => insertDeliveries([endpoint], type, built, traceParent));
      return delivery;
    },

    /** Removes finished deliveries (and their attempts) last changed before `before`; answers how many. */
    async pruneFinished(before: number): Promise<number> {
      // The finished statuses by name, not `<> 'PENDING'`: only then does SQLite use the (status, updated_at) index.
      const finished = inArray(webhookDeliveries.status, ['SUCCEEDED', 'FAILED']);
      const removed = await store.transaction((tx) =>
        tx
          .delete(webhookDeliveries)
          .where(and(finished, lt(webhookDeliveries.updatedAt, before)))
          .returning({ id: webhookDeliveries.id }),
      );
      return removed.length;
    },

    /**
     * Ids of the endpoints with a delivery due by now. The worker's view spans every project and
     * environment, as its job does; what users read goes through `inScope` in the service.
     */
    async dueEndpointIds(now: number): Promise<string[]> {
      return (await dueEndpoints.execute({ now })).map((row) => row.endpointId);
    },

    /**
     * Claims for `owner` (a worker's `node_` id) the due deliveries of one endpoint that no worker holds, earliest
     * first, as many as `owner` has room for (ENDPOINT_CLAIM), and answers them: each is then `owner`'s to send until
     * DELIVERY_LEASE_MS from now, and no other worker's, on this server or any other on the database.
     */
    async claimDue(endpointId: string, now: number, owner: string): Promise<DeliveryRow[]> {
      const claimed = await claimDeliveries(endpointId, {
        endpointId,
        now,
        owner,
        leaseExpiresAt: now + DELIVERY_LEASE_MS,
      });
      // An UPDATE answers its rows in no particular order.
      return claimed.sort(
        (a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
    },

    /**
     * Gives back what `owner` claimed of `deliveryIds` (attempts abandoned by a server that stops), so that the next
     * server sends them at once rather than when their leases run out.
     */
    async releaseClaims(owner: string, deliveryIds: string[]): Promise<void> {
      if (deliveryIds.length === 0) return;
      await store.transaction((tx) =>
        tx
          .update(webhookDeliveries)
          .set({ leaseOwner: null, leaseExpiresAt: null })
          .where(and(inArray(webhookDeliveries.id, deliveryIds), eq(webhookDeliveries.leaseOwner, owner))),
      );
    },

    /**
     * Fails the pending deliveries of an endpoint found disabled when they were claimed, unsent: queued from the list
     * of enabled endpoints in memory as the endpoint was being disabled (`enqueueEvents`), after the disabling failed
     * what was pending. Nothing is sent to a disabled endpoint.
     */
    async failDisabled(endpointId: string): Promise<void> {
      await store.transaction((tx) =>
        tx
          .update(webhookDeliveries)
          .set({
            status: 'FAILED',
            nextAttemptAt: null,
            lastError: 'Endpoint disabled: retries stopped.',
            // Their claims end with them: a lease left on a finished delivery would count against the lane.
            leaseOwner: null,
            leaseExpiresAt: null,
            updatedAt: clock.now(),
          })
          .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'PENDING'))),
      );
    },

    async endpoint(endpointId: string): Promise<EndpointRow | undefined> {
      const [endpoint] = await endpointById.execute({ id: endpointId });
      return endpoint;
    },

    /**
     * Holds a delivery this worker claimed back until `until` without an attempt (an injected `webhook.delay` or
     * `webhook.out_of_order`): its claim ends, and `note` stays as its `lastError` until an attempt is recorded, so
     * that the delivery log says why it waits and the attempt that follows knows it was held (`heldBy`).
     */
    async holdBack(delivery: Pick<DeliveryRow, 'id' | 'leaseOwner'>, until: number, note: string): Promise<void> {
      const now = clock.now();
      await store.transaction((tx) =>
        tx
          .update(webhookDeliveries)
          .set({ nextAttemptAt: until, lastError: note, leaseOwner: null, leaseExpiresAt: null, updatedAt: now })
          .where(
            and(
              eq(webhookDeliveries.id, delivery.id),
              eq(webhookDeliveries.status, 'PENDING'),
              delivery.leaseOwner === null ? undefined : eq(webhookDeliveries.leaseOwner, delivery.leaseOwner),
            ),
          ),
      );
    },

    /**
     * Records a second copy of a delivery that succeeded (an injected `webhook.duplicate`) as one more attempt: the
     * delivery keeps its status, and the endpoint's run of failures is not touched, whatever the copy came to.
     */
    async recordDuplicate(deliveryId: string, outcome: AttemptOutcome): Promise<void> {
      const recorded = await store.transaction(async (tx) => {
        const [delivery] = await statementsIn(tx).deliveryById.execute({ id: deliveryId });
        if (!delivery) return undefined;
        const number = delivery.attempts + 1;
        await insertAttempt({ deliveryId, number, ...outcome, injectedFault: outcome.injectedFault ?? null });
        await tx
          .update(webhookDeliveries)
          .set({ attempts: number, updatedAt: clock.now() })
          .where(eq(webhookDeliveries.id, deliveryId));
        return { delivery, number };
      });
      if (!recorded) return;
      const { delivery, number } = recorded;
      events.emit('webhook.attempted', {
        ...scopeValues(delivery),
        deliveryId: delivery.id,
        webhookId: delivery.endpointId,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        attempt: number,
        status: delivery.status,
        statusCode: outcome.statusCode,
        error: outcome.error,
        succeeded: isSuccess(outcome),
        injectedFault: outcome.injectedFault ?? null,
        queuedAt: delivery.createdAt,
        at: outcome.attemptedAt,
      });
    },

    /**
     * Records an attempt and what follows from it, in one transaction: the delivery succeeds, waits
     * for its next retry or fails; the endpoint's run of failures is reset or grows, and at
     * AUTO_DISABLE_AFTER_FAILURES the endpoint is disabled and its pending deliveries fail. A resend
     * asked for while the attempt was in flight (`resends` moved on since `launched` was read) stands:
     * the delivery stays due when the resend made it due, whatever this attempt came to. The claim that `launched`
     * was sent under ends: the delivery is free for the next claim.
     */
    recordAttempt(launched: LaunchedDelivery, outcome: AttemptOutcome): Promise<void> {
      const { endpointId } = launched;
      return new Promise<void>((resolve, reject) => {
        const batch = unrecorded.get(endpointId);
        if (batch) {
          batch.push({ launched, outcome, settle: { resolve, reject } });
          return;
        }
        unrecorded.set(endpointId, [{ launched, outcome, settle: { resolve, reject } }]);
        inTurn(endpointId, () => recordBatch(endpointId)).catch(() => {});
      });
    },
  };
}

export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;
