import { EventEmitter } from 'node:events';
import type { Environment } from '../../db/schema/environment.js';
import type { DeliveryStatus } from '../../db/schema/webhooks.js';
import type { ResetCounts } from '../environment-reset/service.js';

/**
 * An event of the public catalogue: what webhooks deliver (and the CLI's `tail` shows). Emitted by
 * the domain services after the change has committed, e.g. `room.created`, `message.created`.
 */
export interface CatalogueEvent {
  /** Catalogue type, e.g. `room.created`. */
  type: string;
  projectId: string;
  environment: Environment;
  /** The event's documented `data` shape (see the catalogue). */
  data: Record<string, unknown>;
}

/**
 * What happens inside the server, for the parts that react to it (caches, realtime fan-out,
 * webhook delivery). Listeners run synchronously, in the order they subscribed, after the change
 * has committed.
 */
export interface InternalEvents {
  'project.deleted': { projectId: string };
  /**
   * The runtime data of one project environment was deleted (`POST /v1/projects/{id}/environment/reset`): what is
   * kept in memory for it (sockets, presence, typing, participants, cached rows, unflushed counts) goes too.
   */
  'environment.reset': { projectId: string; environment: Environment; removed: ResetCounts };
  'api_key.revoked': { projectId: string; keyId: string };
  /** A room is gone (deleted, or with its project): its participants must be disconnected. */
  'room.deleted': { projectId: string; environment: Environment; roomId: string };
  /**
   * A chat change, for realtime fan-out to the conversation's connected members. Emitted before the
   * catalogue event of the same change: a message reaches connected clients before its webhook is
   * queued (spec 6.3).
   */
  chat: {
    projectId: string;
    environment: Environment;
    conversationId: string;
    type: string;
    /** The event's data as connected clients get it, built on demand: only when someone connected will hear it. */
    data: () => Record<string, unknown>;
    /** On `conversation.created`: its members, whose connections hear from it from then on. */
    members?: readonly string[];
  };
  /** Every event of the public catalogue. */
  catalogue: CatalogueEvent;
  /** A signaling participant joined or a realtime client was admitted (observability keeps the record). */
  'connection.opened': ConnectionInfo & { at: number };
  /** That connection ended (`at`); code and reason as the socket closed. */
  'connection.closed': ConnectionInfo & { at: number; code: number | null; reason: string | null };
  /** One webhook delivery attempt was recorded; `status` is the delivery's status after it. */
  'webhook.attempted': {
    projectId: string;
    environment: Environment;
    deliveryId: string;
    webhookId: string;
    eventId: string;
    eventType: string;
    attempt: number;
    status: DeliveryStatus;
    statusCode: number | null;
    error: string | null;
    succeeded: boolean;
    at: number;
  };
  /** A runtime request's error answer was written to the error log (`id` is its `err_` id). */
  'request.failed': {
    id: string;
    projectId: string;
    environment: Environment;
    requestId: string;
    status: number;
    code: string;
    message: string;
    method: string;
    route: string;
    credential: 'key' | 'chat' | 'rtc';
    at: number;
  };
  /** Telemetry events were accepted and stored. */
  'telemetry.accepted': { projectId: string; environment: Environment; count: number };
}

/** A socket that counts as a connection, as `connection.opened` and `connection.closed` name it. */
export interface ConnectionInfo {
  id: string;
  projectId: string;
  environment: Environment;
  kind: 'signaling' | 'realtime';
  identity: string;
  roomId: string | null;
  conversationId: string | null;
}

export type InternalEventName = keyof InternalEvents;

export interface EventBus {
  emit<E extends InternalEventName>(event: E, payload: InternalEvents[E]): void;
  on<E extends InternalEventName>(event: E, listener: (payload: InternalEvents[E]) => void): () => void;
}

export function createEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  return {
    emit(event, payload) {
      emitter.emit(event, payload);
    },
    on(event, listener) {
      emitter.on(event, listener);
      return () => emitter.off(event, listener);
    },
  };
}
