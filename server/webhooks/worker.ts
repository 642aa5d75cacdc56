import type { Infrastructure } from '../context.js';
import type { CatalogueEvent } from '../events/bus.js';
import type { FaultRules } from '../faults/rules.js';
import { DEFAULT_OUT_OF_ORDER_MS, type FaultKind } from '../faults/schemas.js';
import { heldBy, heldNote, SIMULATED_FAILURE } from '../faults/webhook-faults.js';
import type { RecordingService } from '../recordings/service.js';
import { SPAN_KIND, SPAN_STATUS_ERROR } from '../tracing/tracing.js';
import { EVENT_CATALOGUE, isEventType } from './catalogue.js';
import { DELIVERY_RETENTION_MS, ENDPOINT_CONCURRENCY, RETENTION_SWEEP_INTERVAL_MS } from './policy.js';
import {
  type AttemptOutcome,
  type DeliveryQueue,
  type DeliveryRow,
  type EndpointRow,
  isSuccess,
  type QueuedEvent,
} from './queue.js';
import type { SecretBox } from './secret-box.js';
import { AttemptAbandoned, sendAttempt } from './send.js';
import { targetRefusal } from './target.js';

/**
 * What an attempt's span says of it: ids, the event type, the attempt's number and the target's host and port, never
 * the URL's path or query (which may hold a token of the receiver's) nor the payload.
 */
function attemptAttributes(delivery: DeliveryRow, endpoint: EndpointRow) {
  const target = URL.parse(endpoint.url);
  return {
    'http.request.method': 'POST',
    ...(target && {
      'server.address': target.hostname,
      'server.port': Number(target.port) || (target.protocol === 'https:' ? 443 : 80),
    }),
    'switchboard.webhook_id': endpoint.id,
    'switchboard.delivery_id': delivery.id,
    'switchboard.event_id': delivery.eventId,
    'switchboard.event_type': delivery.eventType,
    'switchboard.attempt': delivery.attempts + 1,
  };
}

/** How often the worker looks for retries that have come due (by the injected clock). */
const POLL_INTERVAL_MS = 1000;

export interface DeliveryWorker {
  /** Subscribes to catalogue events and starts sending; `startServer` calls it once listening. */
  start(): void;
  /** Looks for due deliveries soon (after something was queued). */
  kick(): void;
  /**
   * Settles once every catalogue event emitted so far has its deliveries in the store; undefined when none waits
   * (most requests). A request is answered only after this, so that a change acknowledged to its caller never loses
   * its webhooks to a crash between its commit and the queueing of its deliveries.
   */
  queued(): Promise<void> | undefined;
  /**
   * Sends everything due by the clock's now and waits until nothing is in flight. The worker does
   * this by itself on every new event and every second; a test that moves a manual clock calls it
   * to make the retries that came due happen at once.
   */
  runDue(): Promise<void>;
  /** Stops taking and sending deliveries; attempts in flight are abandoned and sent again after a restart. */
  stop(): Promise<void>;
}

/**
 * Sends queued deliveries. What is due is decided by the injected clock against `nextAttemptAt` in
 * the store, so the queue, not this object, is the state: after a restart the worker picks up where the
 * last one stopped. Each endpoint has its own lane of at most ENDPOINT_CONCURRENCY attempts in
 * flight, so a slow or silent endpoint holds up only its own deliveries.
 *
 * Several servers may share one database (PostgreSQL), each with its worker: a delivery goes out from the worker
 * that claimed it in the store (`queue.claimDue`: its id as the owner, a lease of DELIVERY_LEASE_MS), so once per
 * attempt however many servers run. The lane is the endpoint's across servers: a claim counts the endpoint's
 * deliveries under an unexpired lease, whoever holds them. Recording the attempt ends the claim; a stopping worker
 * gives back the claims of the attempts it abandons; a server that dies leaves its claims to run out, and another
 * server sends those deliveries again, with the same event id (at least once). `inFlight` is this worker's share:
 * what it waits for, and a lane it knows is full without asking the store.
 */
export function createDeliveryWorker(
  { clock, cluster, events, fetch, logger, mode, version, tracing }: Infrastructure,
  queue: DeliveryQueue,
  secrets: SecretBox,
  faults: FaultRules,
  recordings: Pick<RecordingService, 'webhookAttempt'>,
): DeliveryWorker {
  /** This worker, as the owner of what it claims: its node (a restart is another node, another owner). */
  const owner = cluster.nodeId;
  const inFlight = new Map<string, { endpointId: string; done: Promise<void> }>();
  /** Deliveries whose attempt the stop abandoned: their claims are given back. */
  const abandoned: string[] = [];
  const stopping = new AbortController();
  const userAgent = `Switchboard-Webhooks/${version}`;
  let running = false;
  let passScheduled = false;
  let poll: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void)[] = [];

  /** Attempts in flight per endpoint: what its lane on this worker holds. */
  const inFlightCount = new Map<string, number>();
  const inFlightFor = (endpointId: string) => inFlightCount.get(endpointId) ?? 0;
  /**
   * Deliveries claimed and not yet launched, per endpoint, earliest first, each with its endpoint as read when they
   * were claimed: a claim takes up to ENDPOINT_CLAIM, the lane sends ENDPOINT_CONCURRENCY at a time.
   */
  const waiting = new Map<string, { delivery: DeliveryRow; endpoint: EndpointRow | undefined }[]>();
  const waitingCount = () => [...waiting.values()].reduce((sum, list) => sum + list.length, 0);

  /**
   * Catalogue events are queued in batches, one batch after another, in the order they were emitted: the events
   * emitted while a batch is written wait together and are written next, in one transaction (a group commit). A
   * request then waits for at most the batch being written and its own, however many requests post at once; queued
   * one transaction an event, each waited for everyone's before it (issue 45). `queueing` settles when the last
   * batch is written; it never rejects: each failure is logged.
   */
  let queueing: Promise<void> = Promise.resolve();
  /** The batch still taking events: written once the batch before it is. */
  let gathering: QueuedEvent[] | undefined;
  /** Catalogue events emitted and not yet queued (their deliveries not yet in the store). */
  let unqueued = 0;

  function gather(emitted: CatalogueEvent): void {
    unqueued++;
    // Emitted inside a trace (a request's, when the server traces): its deliveries' attempts join it.
    const traceParent = tracing.traceparent();
    const event: QueuedEvent = traceParent ? { ...emitted, traceParent } : emitted;
    if (gathering) {
      gathering.push(event);
      return;
    }
    const batch = [event];
    gathering = batch;
    queueing = queueing.then(async () => {
      // Closed when its turn comes: what is emitted from now on goes to the next batch.
      if (gathering === batch) gathering = undefined;
      try {
        await enqueue(batch);
      } finally {
        unqueued -= batch.length;
      }
    });
  }

  /**
   * Passes and the serving of new deliveries run one at a time: each claims what is due and launches it. Claims never
   * overlap, but one after another they find the lanes this worker fills as it fills them.
   */
  let scheduling: Promise<void> = Promise.resolve();
  function exclusive(work: () => Promise<void>): Promise<void> {
    const run = scheduling.then(work);
    scheduling = run.catch(() => {});
    return run;
  }

  let lastSweepAt: number | undefined;
  /** At most once per interval: finished deliveries past their retention leave the log. */
  async function sweepRetention(now: number): Promise<void> {
    if (lastSweepAt !== undefined && now - lastSweepAt < RETENTION_SWEEP_INTERVAL_MS) return;
    lastSweepAt = now;
    const removed = await queue.pruneFinished(now - DELIVERY_RETENTION_MS);
    if (removed > 0) logger.info({ removed }, 'webhook deliveries past their retention removed');
  }

  /** Starts every due delivery that its endpoint's lane has room for. Run it through `exclusive`. */
  async function pass(): Promise<void> {
    if (!running) return;
    const now = clock.now();
    await sweepRetention(now);
    // The lanes with claimed deliveries waiting are served too: those are leased, so not due to the store.
    const lanes = new Set([...(await queue.dueEndpointIds(now)), ...waiting.keys()]);
    for (const endpointId of lanes) await fillLane(endpointId, now);
  }

  /**
   * Starts the deliveries of one endpoint that its lane has room for, earliest first: those claimed before, then,
   * when fewer than a lane's worth wait, what a new claim takes.
   */
  async function fillLane(endpointId: string, now: number): Promise<void> {
    if (!running) return;
    launchWaiting(endpointId);
    const queued = waiting.get(endpointId) ?? [];
    // Claimed ahead while the lane still has work, so that it never waits for the claim.
    if (queued.length < ENDPOINT_CONCURRENCY) {
      const claimed = await queue.claimDue(endpointId, now, owner);
      if (claimed.length > 0 && running) {
        // Read once for the claim: the deliveries claimed together go out with the endpoint as it is now.
        const endpoint = await queue.endpoint(endpointId);
        if (endpoint && !endpoint.enabled) {
          await queue.failDisabled(endpointId);
          return;
        }
        const known = new Set(queued.map((entry) => entry.delivery.id));
        for (const delivery of claimed) {
          // Claimed again by this worker only if its lease ran out while the attempt was in flight or waited (a
          // stall, or a clock moved by hand): that attempt, when recorded, ends the new claim too.
          if (!inFlight.has(delivery.id) && !known.has(delivery.id)) queued.push({ delivery, endpoint });
        }
        if (queued.length > 0) waiting.set(endpointId, queued);
      }
    }
    launchWaiting(endpointId);
  }

  /** Launches the endpoint's waiting deliveries while its lane on this worker has room. */
  function launchWaiting(endpointId: string): void {
    const queued = waiting.get(endpointId);
    if (!queued) return;
    while (running && queued.length > 0 && inFlightFor(endpointId) < ENDPOINT_CONCURRENCY) {
      const next = queued.shift();
      if (next) launch(next.delivery, next.endpoint);
    }
    if (queued.length === 0) waiting.delete(endpointId);
  }

  /**
   * New deliveries and freed lanes are served without a pass: only their own lanes are claimed. A pass reads every
   * endpoint with a due delivery, so beside a slow endpoint it read that endpoint's growing backlog again on every
   * event and every answer, and the healthy endpoints' deliveries waited behind those reads (webhook bench: p50
   * 27 ms beside a 4 s endpoint against 1.7 ms without it). The poll's pass, every second, still finds the retries
   * that came due. `fresh` and `freed` hold endpoint ids, in the order they came.
   */
  const fresh = new Set<string>();
  const freed = new Set<string>();
  let turnScheduled = false;

  /**
   * In the next turn of the event loop: after the request that queued a delivery has been answered, and after the
   * answer that freed a lane has released its connection to the pool (launched inside the answer's callback, the
   * next attempt opened a new connection each time).
   */
  function serveSoon(): void {
    if (turnScheduled) return;
    turnScheduled = true;
    tracing.outside(() =>
      setImmediate(() => {
        turnScheduled = false;
        exclusive(serveWaiting).catch((err: unknown) =>
          logger.error({ err }, 'webhook worker could not serve new deliveries'),
        );
      }),
    );
  }

  async function serveWaiting(): Promise<void> {
    // The lanes of the new deliveries, in the order they were queued, then the lanes freed: each claims what is due
    // on it, so a new delivery goes out now if its lane has room, else when the lane frees up (here or on another
    // server). Another worker may have claimed it first.
    const lanes = new Set([...fresh, ...freed]);
    fresh.clear();
    freed.clear();
    if (!running) return;
    const now = clock.now();
    for (const endpointId of lanes) await fillLane(endpointId, now);
  }

  function safePass(): void {
    exclusive(pass).catch((err: unknown) => logger.error({ err }, 'webhook worker pass failed'));
  }

  /**
   * Queues the deliveries of a batch of catalogue events; a failure is logged, never thrown. A batch that cannot be
   * written is tried again an event at a time, so that one event's failure costs no other its deliveries.
   */
  async function enqueue(batch: QueuedEvent[]): Promise<void> {
    try {
      queuedDeliveries(batch, await queue.enqueueEvents(batch));
    } catch (err) {
      if (batch.length === 1) {
        // The change that emitted the event has committed; its caller must not fail for our sake.
        logger.error({ err, type: batch[0].type }, 'could not queue webhook deliveries');
        return;
      }
      for (const event of batch) await enqueue([event]);
    }
  }

  function queuedDeliveries(batch: CatalogueEvent[], queued: DeliveryRow[]): void {
    if (queued.length === 0) return;
    // Checked only when something is to be delivered: most events go to no endpoint.
    const delivered = new Set(queued.map((delivery) => delivery.eventType));
    for (const event of batch) {
      if (!delivered.has(event.type)) continue;
      if (!isEventType(event.type)) {
        logger.warn({ type: event.type }, 'event type missing from the webhook catalogue; delivered anyway');
      } else if (!EVENT_CATALOGUE[event.type].data.safeParse(event.data).success) {
        logger.warn({ type: event.type }, 'event data does not match its catalogue shape; delivered anyway');
      }
    }
    for (const delivery of queued) fresh.add(delivery.endpointId);
    serveSoon();
  }

  /**
   * Sends one delivery, then records its attempt. The lane's place is given back as soon as the answer is in, not once
   * it is recorded: the endpoint's next delivery goes out while this one's attempt is written (with others of the
   * endpoint, `queue.recordAttempt`). Waiting for the record held each lane for a send and a transaction, and drained a
   * fast endpoint at 4 deliveries a commit (issue 45). What is sent but not recorded stays bounded by the claim
   * (ENDPOINT_CLAIM): its lease ends only with the record.
   */
  function launch(delivery: DeliveryRow, endpoint: EndpointRow | undefined): void {
    const { endpointId } = delivery;
    inFlightCount.set(endpointId, inFlightFor(endpointId) + 1);
    let placeHeld = true;
    const givePlaceBack = () => {
      if (!placeHeld) return;
      placeHeld = false;
      const left = inFlightFor(endpointId) - 1;
      if (left > 0) inFlightCount.set(endpointId, left);
      else inFlightCount.delete(endpointId);
    };
    const sent = attempt(delivery, endpoint);
    sent.then(
      () => {
        givePlaceBack();
        freed.add(endpointId);
        serveSoon();
      },
      () => {},
    );
    const done = sent
      .then(
        async (made) => {
          if (!made) return;
          recordForRecording(delivery, endpoint, made.outcome);
          await queue.recordAttempt(delivery, made.outcome);
          // An injected `webhook.duplicate`: what the endpoint took is sent once more, as at-least-once delivery may.
          if (made.again && isSuccess(made.outcome)) {
            const again = await made.again();
            recordForRecording(delivery, endpoint, again);
            await queue.recordDuplicate(delivery.id, again);
          }
        },
        (err: unknown) => {
          if (!(err instanceof AttemptAbandoned)) throw err;
          abandoned.push(delivery.id);
        },
      )
      .then(
        () => true,
        (err: unknown) => {
          logger.error({ err, deliveryId: delivery.id }, 'webhook attempt could not be recorded');
          return false;
        },
      )
      .then((recorded) => {
        inFlight.delete(delivery.id);
        givePlaceBack();
        // Not refilled: a delivery that cannot be recorded keeps its claim until the lease runs out, then goes again.
        if (!recorded) return;
        // Its lease has ended: the claim has room for one more.
        freed.add(endpointId);
        serveSoon();
      });
    inFlight.set(delivery.id, { endpointId: delivery.endpointId, done });
  }

  /** An attempt of a recorded environment's delivery, for its recording (server/recordings); nothing otherwise. */
  function recordForRecording(delivery: DeliveryRow, endpoint: EndpointRow | undefined, outcome: AttemptOutcome): void {
    if (!endpoint) return;
    recordings.webhookAttempt(delivery, {
      webhookId: endpoint.id,
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      url: endpoint.url,
      requestHeaders: outcome.requestHeaders,
      requestBody: delivery.payload,
      status: outcome.statusCode,
      error: outcome.error,
      responseBody: outcome.responseBody,
      timeMs: outcome.durationMs,
      attemptedAt: outcome.attemptedAt,
    });
  }

  /**
   * One attempt of a delivery, or undefined when there is nothing to record; `again`, when an injected
   * `webhook.duplicate` drew it, sends the same delivery once more.
   */
  async function attempt(
    delivery: DeliveryRow,
    endpoint: EndpointRow | undefined,
  ): Promise<{ outcome: AttemptOutcome; again?: () => Promise<AttemptOutcome> } | undefined> {
    if (!endpoint) return undefined; // deleted: its deliveries went with it
    const refused = (error: string): AttemptOutcome => ({
      attemptedAt: clock.now(),
      durationMs: 0,
      statusCode: null,
      error,
      requestHeaders: null,
      responseBody: null,
    });
    // Checked again at send time: the deployment mode may have changed since registration.
    const refusal = targetRefusal(endpoint.url, mode);
    if (refusal) return { outcome: refused(`Target refused: ${refusal}.`) };
    let secret: string;
    try {
      secret = secrets.open(endpoint.secretCiphertext, endpoint.id);
    } catch (err) {
      logger.error({ err, webhookId: endpoint.id }, 'cannot decrypt a webhook signing secret');
      return {
        outcome: refused('Cannot decrypt the signing secret (was webhook-secrets.key replaced?); nothing was sent.'),
      };
    }
    // Faults injected into the endpoint's environment (development and staging only; none almost always).
    const rules = await faults.of(delivery);
    const held = delivery.attempts === 0 ? heldBy(delivery.lastError) : undefined;
    if (rules.length > 0 && delivery.attempts === 0 && !held) {
      const hold = faults.pick(rules, 'webhook.delay') ?? faults.pick(rules, 'webhook.out_of_order');
      if (hold) {
        const delayMs = hold.delayMs ?? DEFAULT_OUT_OF_ORDER_MS;
        await queue.holdBack(delivery, clock.now() + delayMs, heldNote(hold.kind as FaultKind, delayMs));
        // Looked for when it comes due, rather than at the next poll.
        setTimeout(kick, delayMs).unref();
        return undefined;
      }
    }
    if (faults.pick(rules, 'webhook.failure')) {
      return { outcome: { ...refused(SIMULATED_FAILURE), injectedFault: 'webhook.failure' } };
    }
    // A span each, child of the one that emitted the event (carried in the delivery's row), whose `traceparent` the
    // receiver gets: its own trace joins the sender's.
    const send = () =>
      tracing.inSpanFrom(
        delivery.traceParent,
        'webhook attempt',
        { kind: SPAN_KIND.client, attributes: tracing.enabled ? attemptAttributes(delivery, endpoint) : undefined },
        async (span) => {
          const outcome = await sendAttempt(
            { fetch, clock, userAgent },
            {
              url: endpoint.url,
              secret,
              eventId: delivery.eventId,
              eventType: delivery.eventType,
              payload: delivery.payload,
              traceparent: tracing.traceparent(),
            },
            stopping.signal,
          );
          if (span) {
            if (outcome.statusCode !== null) span.setAttribute('http.response.status_code', outcome.statusCode);
            if (!isSuccess(outcome)) {
              span.setAttribute('error.type', outcome.statusCode === null ? 'no_response' : String(outcome.statusCode));
              span.setStatus({ code: SPAN_STATUS_ERROR });
            }
          }
          return outcome;
        },
      );
    const outcome = await send();
    const duplicate = faults.pick(rules, 'webhook.duplicate');
    return {
      outcome: { ...outcome, injectedFault: held ?? null },
      again: duplicate ? async () => ({ ...(await send()), injectedFault: 'webhook.duplicate' }) : undefined,
    };
  }

  function kick(): void {
    if (!running || passScheduled) return;
    passScheduled = true;
    // Outside the trace of whatever asked: a pass serves every endpoint's deliveries (each attempt's span has the
    // parent its delivery keeps).
    tracing.outside(() =>
      setImmediate(() => {
        passScheduled = false;
        safePass();
      }),
    );
  }

  return {
    start() {
      if (running || stopping.signal.aborted) return;
      running = true;
      // Queued by the node whose change emitted the event: once in the cluster.
      unsubscribe = [
        events.onLocal('catalogue', gather),
        // An environment's test clock moved on (on any node): the retries it made due go out now, not at the poll.
        events.on('environment.clock_changed', kick),
      ];
      poll = setInterval(safePass, POLL_INTERVAL_MS);
      poll.unref();
      kick();
    },

    kick,

    queued(): Promise<void> | undefined {
      return unqueued === 0 ? undefined : queueing;
    },

    async runDue() {
      // What was emitted before is queued first.
      await queueing;
      for (;;) {
        // A pass serves every due delivery, so what waited to be served is its to serve. An attempt recorded while
        // the pass read (its lane freed, its delivery due again) waits in `freed`: then one more pass.
        await exclusive(() => {
          fresh.clear();
          freed.clear();
          return pass();
        });
        if (inFlight.size === 0 && freed.size === 0 && waitingCount() === 0) return;
        await Promise.all([...inFlight.values()].map((task) => task.done));
      }
    },

    async stop() {
      if (!running) return;
      running = false;
      for (const stop of unsubscribe) stop();
      clearInterval(poll);
      stopping.abort();
      // The events emitted before are queued while the store is still open; they are sent after a restart.
      await queueing;
      // A pass under way launches what it read (abandoned at once), so it is awaited before what is in flight.
      await scheduling;
      await Promise.all([...inFlight.values()].map((task) => task.done));
      // Claimed and never launched: given back with the abandoned ones.
      for (const queued of waiting.values()) abandoned.push(...queued.map((entry) => entry.delivery.id));
      waiting.clear();
      // Given back, so that the next server to start sends them at once; else their leases run out first.
      try {
        await queue.releaseClaims(owner, abandoned);
      } catch (err) {
        logger.warn({ err, deliveries: abandoned.length }, 'could not give back claimed webhook deliveries');
      }
    },
  };
}
