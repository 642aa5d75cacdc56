import { EventEmitter } from 'node:events';
import type { Environment } from '../../db/schema/environment.js';
import type { environmentFaults, environmentRecordings } from '../../db/schema/test-tools.js';
import type { DeliveryStatus } from '../../db/schema/webhooks.js';
import type { ResetCounts } from '../environment-reset/service.js';
import type { MediaRequest } from '../media/protocol.js';
import type { ServerMessage } from '../rtc/protocol.js';

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
 * webhook delivery). Every payload is plain data, but `chat`'s lazily built `data`, so that it can
 * cross to the other nodes (server/cluster/relay.ts encodes that one).
 */
export interface InternalEvents {
  'project.deleted': { projectId: string };
  /**
   * The runtime data of one project environment was deleted (`POST /v1/projects/{id}/environment/reset`, or a
   * snapshot's restore, which replaced it with the snapshot's): what is
   * kept in memory for it (sockets, presence, typing, participants, cached rows, unflushed counts) goes too.
   */
  'environment.reset': {
    projectId: string;
    environment: Environment;
    removed: ResetCounts;
    /** Set when a snapshot's restore emptied it (server/environment-snapshots), and its rows were put back. */
    snapshot?: string;
  };
  /**
   * An environment's test clock was advanced (`advancedByMs` > 0) or reset to real time (`offsetMs` 0): the copies of
   * the clocks in memory are dropped, the webhook worker looks for the retries that came due, typing indicators
   * whose time passed stop (server/test-clock).
   */
  'environment.clock_changed': { projectId: string; environment: Environment; offsetMs: number; advancedByMs: number };
  /**
   * Faults were injected into the environment or removed (server/faults): every node drops its cached list of the
   * scope's faults, and the live event stream tells dashboards. `faults` are those added or removed.
   */
  'environment.faults_changed': {
    projectId: string;
    environment: Environment;
    change: 'added' | 'removed';
    faults: (typeof environmentFaults.$inferSelect)[];
  };
  /**
   * Drop a share of the environment's realtime and/or signaling sockets now (an injected fault): every node closes
   * its own. `node` is the node that was asked, which closed its sockets before emitting (to count them).
   */
  'environment.sockets_dropped': {
    projectId: string;
    environment: Environment;
    percent: number;
    kind: 'realtime' | 'signaling' | 'all';
    node: string;
  };
  /**
   * A recording of the environment started, stopped (asked, or at a limit) or was deleted (server/recordings): every
   * node reads the running recordings again, and the live event stream tells dashboards.
   */
  'environment.recording_changed': {
    projectId: string;
    environment: Environment;
    recording: typeof environmentRecordings.$inferSelect;
  };
  'api_key.revoked': { projectId: string; keyId: string };
  /** Which endpoints of the scope are enabled, or what they subscribe to, changed: cached lists are stale. */
  'webhook_endpoints.changed': { projectId: string; environment: Environment };
  /** A conversation's row changed (name, metadata): cached copies are stale. */
  'conversation.changed': { conversationId: string };
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
  /**
   * A user came online (their first realtime socket on any node) or went offline (their last one closed, or the node
   * holding it died): each node tells its own sockets in `conversationIds` (see PRESENCE_BROADCAST_LIMIT). `at` is
   * when the deciding node saw it.
   */
  'presence.changed': {
    projectId: string;
    environment: Environment;
    userId: string;
    online: boolean;
    at: number;
    conversationIds: string[];
  };
  /**
   * A user started (or renewed) or stopped typing in a conversation: each node keeps who is typing (expiring it by
   * itself, TYPING_TTL_MS after the last start it heard) and tells its own sockets of the conversation.
   */
  'typing.changed': {
    projectId: string;
    environment: Environment;
    conversationId: string;
    userId: string;
    typing: boolean;
  };
  /**
   * A signaling frame for the room's sockets on whichever node holds them (server/rtc/hub.ts): for the participant
   * `to`, or without it for everyone in the room but `except`. `about` is the connection (`conn_` id) a
   * `participant_joined` or `participant_left` frame is news of.
   */
  'signaling.frame': { roomId: string; to?: string; except?: string; about?: string; message: ServerMessage };
  /**
   * Signaling sockets to close on whichever node holds them: the room's, or only those of `identity`, or only the
   * connection `connection` (replaced by a newer one of its identity, which may have joined on another node).
   */
  'signaling.close': { roomId: string; identity?: string; connection?: string; code: number; reason: string };
  /**
   * Lost node `node`'s signaling participants were removed (server/rtc/lost-nodes.ts, by the node that swept them):
   * the rooms whose media lived there end on every node (server/media/media-routes.ts).
   */
  'signaling.node_lost': { node: string };
  /**
   * With `--rtc-media sfu` on several nodes: a request of a participant of node `origin` for the media process of its
   * room's media home, node `home` (server/media/media-routes.ts).
   */
  'media.request': { home: string; origin: string; request: MediaRequest };
  /**
   * Node `node`, a media home stopping cleanly (its server's `close()`), gave up its rooms' homes in Redis (`rooms`, those
   * still naming it) before its media processes stop: every node closes its participants whose room's home it was at
   * once, instead of when the lost-node check finds it gone (server/media/media-routes.ts).
   */
  'media.home_released': { node: string; rooms: string[] };
  /** What the media home's process answered participant `conn` of node `node`, for its socket there. */
  'media.reply': { node: string; conn: string; message: ServerMessage };
  /** Every event of the public catalogue. */
  catalogue: CatalogueEvent;
  /** A signaling participant joined or a realtime client was admitted (observability keeps the record). */
  'connection.opened': ConnectionInfo & { at: number };
  /** That connection ended (`at`); code and reason as the socket closed. */
  'connection.closed': ConnectionInfo & { at: number; code: number | null; reason: string | null };
  /**
   * A signaling connection whose media went through this node's media process left it (`--rtc-media sfu`): what its
   * connection carried (server/media/media-stats.ts), for its row of the connection log.
   */
  'connection.media': {
    id: string;
    bytesIn: number;
    bytesOut: number;
    packetsLostIn: number;
    packetsLostOut: number;
  };
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
    /** The fault injected into the environment that shaped this attempt (server/faults), if any. */
    injectedFault: string | null;
    /** When the delivery was queued (its `createdAt`), by the same clock as `at`. */
    queuedAt: number;
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

/**
 * The events of this node, and of every other node of the cluster (server/cluster/relay.ts). Listeners run
 * synchronously, in the order they subscribed: this node's events after the change has committed, another node's
 * as they arrive from the bus.
 */
export interface EventBus {
  /** To this node's listeners, then (with a cluster) to every other node's `on` listeners. */
  emit<E extends InternalEventName>(event: E, payload: InternalEvents[E]): void;
  /** Hears the event whichever node emitted it: what keeps sockets, caches and event streams right on every node. */
  on<E extends InternalEventName>(event: E, listener: (payload: InternalEvents[E]) => void): () => void;
  /**
   * Hears only this node's events: for what must happen once in the cluster, by the node that made the change
   * (queueing webhook deliveries, recording a connection, counting a metric).
   */
  onLocal<E extends InternalEventName>(event: E, listener: (payload: InternalEvents[E]) => void): () => void;
  /** An event another node emitted, as the cluster's relay received it: to the `on` listeners only. */
  receive<E extends InternalEventName>(event: E, payload: InternalEvents[E]): void;
  /** Where this node's events go besides its own listeners: the cluster's relay, while there is one. */
  relayTo(forward: (<E extends InternalEventName>(event: E, payload: InternalEvents[E]) => void) | undefined): void;
}

type Heard = (payload: unknown, fromAnotherNode: boolean) => void;

export function createEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  let forward: Parameters<EventBus['relayTo']>[0];
  function subscribe(event: string, heard: Heard): () => void {
    emitter.on(event, heard);
    return () => emitter.off(event, heard);
  }
  return {
    emit(event, payload) {
      emitter.emit(event, payload, false);
      forward?.(event, payload);
    },
    on: (event, listener) => subscribe(event, (payload) => listener(payload as never)),
    onLocal: (event, listener) =>
      subscribe(event, (payload, fromAnotherNode) => {
        if (!fromAnotherNode) listener(payload as never);
      }),
    receive(event, payload) {
      emitter.emit(event, payload, true);
    },
    relayTo(next) {
      forward = next;
    },
  };
}
