import type * as z from 'zod';
import { type EnvironmentScope, projectScopeKeys, scopeKey } from '../../db/scope.js';
import { toIso } from '../clock.js';
import type { Infrastructure } from '../context.js';
import { ServiceError } from '../errors.js';
import type { ConnectionInfo } from '../events/bus.js';
import { presentFault } from '../faults/presenter.js';
import { presentRecording } from '../recordings/presenter.js';
import type { EventType } from '../webhooks/catalogue.js';
import type { liveEventSchema } from './schemas.js';

export type LiveEvent = z.input<typeof liveEventSchema>;
/** A live event before the scope's environment is added (distributed over the union's members). */
type Unscoped<E = LiveEvent> = E extends LiveEvent ? Omit<E, 'environment'> : never;

/** Where a subscriber's events go; `end` when its stream must stop (project deleted, server closing). */
export interface LiveEventSink {
  send(event: LiveEvent): void;
  end(): void;
}

/**
 * The keys of catalogue data that are metadata: ids, names and titles the app's server chose,
 * roles, statuses, times, and the objects holding them. An allow-list, not a deny-list: a field
 * added to the catalogue later (which may carry what end users wrote) stays out of the stream
 * until someone decides that it is metadata. Left out today: message `text`, reaction `emoji`.
 */
const METADATA_KEYS = new Set([
  'message',
  'reaction',
  'member',
  'room',
  'conversation',
  'participant',
  'liveStream',
  'id',
  'roomId',
  'conversationId',
  'messageId',
  'senderId',
  'userId',
  'identity',
  'role',
  'name',
  'title',
  'status',
  'createdAt',
  'joinedAt',
  'leftAt',
]);

/** Catalogue data reduced to its metadata keys, at every depth (arrays are left out). */
export function metadataOf(data: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (!METADATA_KEYS.has(key) || Array.isArray(value)) continue;
    kept[key] = value !== null && typeof value === 'object' ? metadataOf(value as Record<string, unknown>) : value;
  }
  return kept;
}

/**
 * What `GET /v1/projects/{id}/events` streams: the server's internal events of one project
 * environment, as metadata. Nothing is built or kept for an environment nobody watches (one map
 * lookup per event).
 */
export function createLiveEventFeed({ events, clock, logger }: Infrastructure) {
  const sinks = new Map<string, Set<LiveEventSink>>();
  let closed = false;

  /** Builds the event only when someone watches; one sink's failure does not stop the others (or the emitter). */
  function publish(scope: EnvironmentScope, build: () => Unscoped): void {
    const watching = sinks.get(scopeKey(scope));
    if (!watching) return;
    const event: LiveEvent = { ...build(), environment: scope.environment };
    for (const sink of watching) {
      try {
        sink.send(event);
      } catch (err) {
        logger.warn({ err }, 'live events: could not send an event');
      }
    }
  }

  const connectionOf = (c: ConnectionInfo) => ({
    id: c.id,
    kind: c.kind,
    identity: c.identity,
    roomId: c.roomId,
    conversationId: c.conversationId,
  });

  events.on('catalogue', (e) =>
    publish(e, () => ({ type: e.type as EventType, at: toIso(clock.now()), data: metadataOf(e.data) })),
  );
  events.on('connection.opened', (c) =>
    publish(c, () => ({ type: 'connection.opened', at: toIso(c.at), data: { connection: connectionOf(c) } })),
  );
  events.on('connection.closed', (c) =>
    publish(c, () => ({
      type: 'connection.closed',
      at: toIso(c.at),
      data: { connection: { ...connectionOf(c), closeCode: c.code, closeReason: c.reason } },
    })),
  );
  events.on('request.failed', ({ projectId, environment, at, ...error }) =>
    publish({ projectId, environment }, () => ({ type: 'request.failed', at: toIso(at), data: { error } })),
  );
  events.on('webhook.attempted', (d) =>
    publish(d, () => ({
      type: 'delivery.attempted',
      at: toIso(d.at),
      data: {
        delivery: {
          id: d.deliveryId,
          webhookId: d.webhookId,
          eventId: d.eventId,
          eventType: d.eventType,
          attempt: d.attempt,
          status: d.status,
          statusCode: d.statusCode,
          error: d.error,
          injectedFault: d.injectedFault,
        },
      },
    })),
  );
  // The environment's streams stay open: what happens in it next is news to whoever watches.
  events.on('environment.reset', ({ removed, snapshot, ...scope }) =>
    publish(scope, () => ({
      type: 'environment.reset',
      at: toIso(clock.now()),
      data: { removed, snapshot: snapshot ?? null },
    })),
  );
  events.on('environment.clock_changed', ({ offsetMs, advancedByMs, ...scope }) =>
    publish(scope, () => ({
      type: 'environment.clock_changed',
      at: toIso(clock.now()),
      data: { offsetMs, advancedByMs },
    })),
  );
  // Loud on purpose: a dashboard shows that its environment's traffic is being faulted.
  events.on('environment.faults_changed', ({ change, faults, ...scope }) =>
    publish(scope, () => ({
      type: 'environment.faults_changed',
      at: toIso(clock.now()),
      data: { change, faults: faults.map(presentFault) },
    })),
  );
  // A recording started, or ended: asked, or at a limit (`endReason` says which), or deleted.
  events.on('environment.recording_changed', ({ recording, ...scope }) =>
    publish(scope, () => ({
      type: 'environment.recording_changed',
      at: toIso(clock.now()),
      data: { recording: presentRecording(recording) },
    })),
  );
  events.on('environment.sockets_dropped', ({ percent, kind, projectId, environment }) =>
    publish({ projectId, environment }, () => ({
      type: 'environment.sockets_dropped',
      at: toIso(clock.now()),
      data: { percent, kind },
    })),
  );
  events.on('project.deleted', ({ projectId }) => {
    for (const key of projectScopeKeys(projectId)) {
      const watching = sinks.get(key);
      if (watching) endAll(key, watching);
    }
  });

  function endAll(key: string, watching: Set<LiveEventSink>): void {
    sinks.delete(key);
    for (const sink of watching) sink.end();
  }

  return {
    /** Starts sending the scope's events to `sink`; the answer stops it. Refused once the server is closing. */
    subscribe(scope: EnvironmentScope, sink: LiveEventSink): () => void {
      if (closed) throw new ServiceError('SERVICE_UNAVAILABLE', 'The server is shutting down.');
      const key = scopeKey(scope);
      const watching = sinks.get(key) ?? new Set();
      watching.add(sink);
      sinks.set(key, watching);
      return () => {
        watching.delete(sink);
        if (watching.size === 0 && sinks.get(key) === watching) sinks.delete(key);
      };
    },

    /** At shutdown: every stream ends, so that open ones do not hold the HTTP server open. */
    close(): void {
      closed = true;
      for (const [key, watching] of sinks) endAll(key, watching);
    },
  };
}

export type LiveEventFeed = ReturnType<typeof createLiveEventFeed>;
