/**
 * Where the media requests of this node's participants go, and where this node's media process's replies go
 * (`--rtc-media sfu`). Alone, both stay here. With several nodes, a room's media lives in the media process of its
 * *media home* (media-home.ts): a participant's requests go to that node as internal events over Redis pub/sub
 * (`media.request`), in the order they were made, and the home's replies come back the same way (`media.reply`) to
 * the node holding the participant's socket. When the home is lost, the room's participants on the other nodes are
 * closed with CLOSE.mediaHomeLost, and join again on a new home; a home that stops cleanly hands its rooms over first
 * (`handOver`), so that they are closed at once rather than when the others find it gone.
 */
import type { Logger } from 'pino';
import type { Cluster } from '../cluster/cluster.js';
import type { EventBus } from '../events/bus.js';
import type { Participant } from '../rtc/participant.js';
import { CLOSE, type ServerMessage, SIGNALING_DEGRADED_REASON } from '../rtc/protocol.js';
import { createMediaHomes } from './media-home.js';
import type { MediaRequest } from './protocol.js';

type JoinRequest = Extract<MediaRequest, { type: 'join' }>;

export interface MediaRoutes {
  /** A request of a participant of this node (its `join` first): to its room's media process, wherever that is. */
  send(participant: Participant, request: MediaRequest): void;
  /** A reply of this node's media process for a participant of another node: sent to that node. */
  reply(conn: string, message: ServerMessage): void;
  /** The joins this node's media process holds (of this node's participants or others'): for a new process. */
  joinedHere(): JoinRequest[];
  /**
   * This node stops (before its media processes do, while its bus is still up): the homes it holds are given up and
   * the other nodes told (`media.home_released`), which close their participants of those rooms with
   * CLOSE.mediaHomeLost at once.
   */
  handOver(): Promise<void>;
  stop(): void;
}

export interface MediaRoutesOptions {
  /** Sends a request to this node's media process. */
  toMedia(request: MediaRequest): void;
  /** Sends a reply to the socket of this node's participant `conn`, if it is still here. */
  toSocket(conn: string, message: ServerMessage): void;
  cluster: Cluster;
  events: EventBus;
  logger: Logger;
}

const MEDIA_HOME_LOST_REASON = 'the server holding the room’s media was lost; join again';
const MEDIA_HOME_STOPPED_REASON = 'the server holding the room’s media stopped; join again';

/** What the media process of this node holds: every join it was sent and has not left, with its node. */
function createHeldJoins() {
  const held = new Map<string, { join: JoinRequest; origin: string }>();
  return {
    note(request: MediaRequest, origin: string): void {
      if (request.type === 'join') held.set(request.conn, { join: request, origin });
      else if (request.type === 'leave') held.delete(request.conn);
    },
    get: (conn: string) => held.get(conn),
    joins: () => [...held.values()].map(({ join }) => join),
  };
}

export function createMediaRoutes({ toMedia, toSocket, cluster, events, logger }: MediaRoutesOptions): MediaRoutes {
  const held = createHeldJoins();
  const self = cluster.nodeId;
  /** With a cluster, the rooms whose home this node is: each given up once its last participant's record ends. */
  const homedHere = new Set<string>();
  const toLocalMedia = (request: MediaRequest, origin: string) => {
    held.note(request, origin);
    if (request.type === 'join') homedHere.add(request.room);
    toMedia(request);
  };
  if (!cluster.redis)
    return {
      send: (_participant, request) => toLocalMedia(request, self),
      reply: () => {},
      joinedHere: held.joins,
      handOver: async () => {},
      stop: () => {},
    };

  const homes = createMediaHomes(cluster.redis, self);
  /** This node's participants in media, by connection, each with its room's home once known (undefined: none). */
  const participants = new Map<string, { participant: Participant; home: Promise<string | undefined> }>();

  function send(participant: Participant, request: MediaRequest): void {
    let known = participants.get(participant.id);
    if (!known && request.type !== 'join') return;
    if (!known) {
      const home = homes.claim(participant.room.id).catch((err: unknown) => {
        logger.warn({ err }, 'could not find a room’s media home: Redis is away');
        participant.socket.close(CLOSE.tryAgainLater, SIGNALING_DEGRADED_REASON);
        return undefined;
      });
      known = { participant, home };
      participants.set(participant.id, known);
    }
    if (request.type === 'leave') participants.delete(participant.id);
    // Each request waits for the same claim: they go out in the order they were made.
    void known.home.then((home) => {
      if (home === self) toLocalMedia(request, self);
      else if (home !== undefined) events.emit('media.request', { home, origin: self, request });
    });
  }

  const unsubscribe = [
    events.on('media.request', ({ home, origin, request }) => {
      if (home === self) toLocalMedia(request, origin);
    }),
    events.on('media.reply', ({ node, conn, message }) => {
      if (node === self) toSocket(conn, message);
    }),
    // A participant's leave from its own node comes as a request; one of a lost node, or one whose leave was not
    // relayed (its node lost Redis meanwhile), with its record's end: its media goes then.
    events.on('connection.closed', ({ id, kind, roomId }) => {
      if (kind !== 'signaling' || roomId === null || !homedHere.has(roomId)) return;
      const joined = held.get(id);
      if (joined) toLocalMedia({ type: 'leave', room: roomId, conn: id }, joined.origin);
      // The record ends after its place was given up: with nobody left in the room, its home is free for the next.
      if (held.joins().some(({ room }) => room === roomId)) return;
      homedHere.delete(roomId);
      homes
        .releaseIfEmpty(roomId)
        .catch((err: unknown) => logger.warn({ err }, 'could not give up a room’s media home: Redis is away'));
    }),
    // The lost node's rooms: those of this node's participants whose home it was end here (each node closes its own).
    events.on('signaling.node_lost', ({ node }) => closeHomedOn(node, MEDIA_HOME_LOST_REASON)),
    // A home that stops hands its rooms over. Every participant whose home it was is closed, not only those of the
    // rooms it named: one whose join was on its way to it when it listed them would otherwise wait for a media that is
    // gone.
    events.on('media.home_released', ({ node, rooms }) => {
      logger.info({ node, rooms: rooms.length }, 'a media home stopped: its rooms’ participants join again');
      closeHomedOn(node, MEDIA_HOME_STOPPED_REASON);
    }),
  ];

  /** Closes this node's participants whose room's home is `node` (lost or stopping) and gives up that home. */
  function closeHomedOn(node: string, reason: string): void {
    for (const { participant, home } of participants.values()) {
      void home.then((resolved) => {
        if (resolved !== node) return;
        participant.socket.close(CLOSE.mediaHomeLost, reason);
        homes
          .abandon(participant.room.id, node)
          .catch((err: unknown) => logger.warn({ err }, 'could not give up the media home of a lost or stopped node'));
      });
    }
  }

  return {
    send,
    reply(conn, message) {
      const joined = held.get(conn);
      if (joined && joined.origin !== self) events.emit('media.reply', { node: joined.origin, conn, message });
    },
    joinedHere: held.joins,
    async handOver() {
      const rooms = [...homedHere];
      homedHere.clear();
      if (rooms.length === 0) return;
      const released = await homes.releaseAll(rooms).catch((err: unknown) => {
        // The others still close their participants: the next join takes a home whose node's record is gone.
        logger.warn({ err }, 'could not give up this node’s media homes: Redis is away');
        return [];
      });
      events.emit('media.home_released', { node: self, rooms: released });
    },
    stop() {
      for (const off of unsubscribe) off();
    },
  };
}
