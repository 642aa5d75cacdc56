import { type EnvironmentScope, isInScope } from '../../db/scope.js';
import { toIso } from '../clock.js';
import type { Infrastructure } from '../context.js';
import { ENVIRONMENT_RESET_REASON } from '../environment-reset/close.js';
import type { ConnectionInfo } from '../events/bus.js';
import { type ClusterRoster, createClusterRoster, type RosterEntry } from './cluster-roster.js';
import type { IceServer } from './ice-servers.js';
import { watchLostNodes } from './lost-nodes.js';
import { type CloseInfo, type Member, memberOf, type Participant, send, viewOf } from './participant.js';
import {
  CLOSE,
  type RelayedClientMessage,
  type RtcMediaMode,
  type ServerMessage,
  SIGNALING_DEGRADED_REASON,
} from './protocol.js';
import { type RelayOutput, relayMessage } from './relay-rules.js';
import { createRoomSockets, type Other } from './room-sockets.js';

export type { CloseInfo, Member, Participant } from './participant.js';

/** What ended a connection, as `connection.closed` records it (unknown for a node that was lost). */
type Ending = { code: number | null; reason: string | null } | undefined;

/** Who left a room: a participant of this node, or a lost node's (from its entry in Redis). */
type Departure = Pick<Participant, 'id' | 'identity' | 'joinedAt' | 'scope' | 'room'>;

/** What `join` answers besides the participant: the room was full, Redis was away, or the socket closed meanwhile. */
export type JoinRefusal = 'full' | 'unavailable' | 'closed';

const REPLACED: CloseInfo = { code: CLOSE.replaced, reason: 'replaced by a new connection with the same identity' };
const LOST_NODE_REASON = 'its server node was lost';

/**
 * The live participants of every room, and the relay between them. A participant is a connection, gone when its
 * socket is. Alone, everything is in memory (room-sockets.ts). With a cluster, that holds this node's sockets, and
 * Redis who is in each room on every node (cluster-roster.ts): a join takes its place there atomically, and frames for
 * a participant on another node cross the bus as `signaling.frame` events, which the node holding its socket sends.
 */
export function createSignalingHub(
  { clock, ids, events, cluster, logger }: Infrastructure,
  { media = 'mesh', iceServers = [] }: { media?: RtcMediaMode; iceServers?: readonly IceServer[] } = {},
) {
  const sockets = createRoomSockets();
  const roster = cluster.redis ? createClusterRoster(cluster.redis, cluster.nodeId) : undefined;
  /** With a cluster, each participant's frames are relayed one after the other (looking up their target may wait). */
  const relaying = new WeakMap<Participant, Promise<void>>();
  /**
   * How many times a change in the database (a deletion, an end, a removal, a reset) closed connections, counted
   * whether or not anyone was connected (see `closings()` below).
   */
  let closings = 0;

  const connectionOf = (p: Departure): ConnectionInfo => ({
    id: p.id,
    ...p.scope,
    kind: 'signaling',
    identity: p.identity,
    roomId: p.room.id,
    conversationId: null,
  });
  const closed = (p: Departure, close: Ending) =>
    events.emit('connection.closed', {
      ...connectionOf(p),
      at: clock.now(),
      code: close?.code ?? null,
      reason: close?.reason ?? null,
    });

  /** To everyone in the room but `except`, on every node (`about`: the connection it is news of, see room-sockets). */
  const broadcast = (roomId: string, message: ServerMessage, { except, about }: { except?: string; about?: string }) =>
    events.emit('signaling.frame', { roomId, except, about, message });

  /** Where the sender's relayed messages go: a participant's socket here, or the bus to the node that has it. */
  const outputOf = (sender: Participant): RelayOutput => ({
    toOne(identity, message) {
      const target = sockets.get(sender.room.id, identity);
      if (target) send(target.socket, message);
      else events.emit('signaling.frame', { roomId: sender.room.id, to: identity, message });
    },
    toOthers: (message) => broadcast(sender.room.id, message, { except: sender.identity }),
    toSender: (message) => send(sender.socket, message),
  });

  events.on('signaling.frame', (frame) => sockets.receive(frame));

  /** Told of each participant this node closes (see `onClosing`). */
  const closingListeners = new Set<(participant: Participant) => void>();
  /**
   * Closes a participant's socket because its place in the room is withdrawn: its listeners hear of it now, not when
   * the closing handshake ends (a client may hold that for `ws`'s 30 s close timeout).
   */
  function withdraw(participant: Participant, code: number, reason: string): void {
    participant.socket.close(code, reason);
    for (const listener of closingListeners) listener(participant);
  }

  /** Ends a connection of this node whose identity joined again: its own close then finds it no longer current. */
  function replaceHere(previous: Participant): void {
    sockets.remove(previous);
    withdraw(previous, REPLACED.code, REPLACED.reason);
    // Its own close event will find it no longer current: record its end here.
    closed(previous, REPLACED);
  }

  /** Closes this node's sockets in the room, or those of one identity in it, those still joining included. */
  function closeHere(roomId: string, code: number, reason: string, identity?: string): void {
    closings++;
    const concerned = (p: Participant) => p.room.id === roomId && (identity === undefined || p.identity === identity);
    for (const participant of sockets.in(roomId)) if (concerned(participant)) withdraw(participant, code, reason);
    for (const { participant } of sockets.joining()) if (concerned(participant)) participant.socket.close(code, reason);
  }

  events.on('signaling.close', ({ roomId, identity, connection, code, reason }) => {
    if (connection === undefined) {
      closeHere(roomId, code, reason, identity);
      return;
    }
    const current = identity === undefined ? undefined : sockets.get(roomId, identity);
    if (current?.id === connection) replaceHere(current);
    for (const pending of sockets.joining()) {
      if (pending.participant.id !== connection) continue;
      pending.ended = 'replaced';
      pending.participant.socket.close(code, reason);
    }
  });
  events.on('room.deleted', ({ roomId }) => closeHere(roomId, CLOSE.roomDeleted, 'the room was deleted'));
  events.on('project.deleted', ({ projectId }) => {
    closings++;
    for (const [roomId, [first]] of sockets.rooms()) {
      if (first?.scope.projectId === projectId) closeHere(roomId, CLOSE.roomDeleted, 'the project was deleted');
    }
    for (const { participant } of sockets.joining()) {
      if (participant.scope.projectId === projectId)
        participant.socket.close(CLOSE.roomDeleted, 'the project was deleted');
    }
  });

  /** Gives up a participant's place in Redis without telling anyone (an environment reset). */
  function forgetPlace(p: Participant): void {
    roster?.release(p.room.id, p.identity, p.id).catch((err: unknown) => {
      // Redis is away: the place goes when it is back (reconcile).
      logger.warn({ err }, 'could not give up a signaling participant’s place');
    });
  }

  /**
   * An environment reset: the scope's rooms are gone, so their participants are forgotten now (no `participant.left`
   * event: nobody in the environment is left to hear it, and its webhook deliveries were just cleared) and their
   * sockets close; the `leave` of each close then finds nobody to remove. Every node does so for its own sockets.
   */
  events.on('environment.reset', (scope) => {
    closings++;
    const at = clock.now();
    const close = { code: CLOSE.environmentReset, reason: ENVIRONMENT_RESET_REASON };
    for (const [roomId, members] of sockets.rooms()) {
      const [first] = members;
      if (!first || !isInScope(first.scope, scope)) continue;
      sockets.drop(roomId);
      for (const participant of members) {
        events.emit('connection.closed', { ...connectionOf(participant), at, ...close });
        withdraw(participant, close.code, close.reason);
        forgetPlace(participant);
      }
    }
    for (const pending of sockets.joining()) {
      if (!isInScope(pending.participant.scope, scope)) continue;
      pending.ended = 'reset';
      pending.participant.socket.close(close.code, close.reason);
    }
  });

  /** The participant is in: on this node's list, told who else is, and announced to them. */
  function admit(joined: Participant, others: Other[]): void {
    sockets.add(joined, others);
    const view = viewOf(joined);
    send(joined.socket, {
      type: 'joined',
      room: joined.room,
      self: view,
      participants: others.map(viewOf),
      iceServers: iceServers.map((server) => ({ ...server, urls: [...server.urls] })),
      media,
    });
    broadcast(
      joined.room.id,
      { type: 'participant_joined', participant: view },
      { except: joined.identity, about: joined.id },
    );
    events.emit('catalogue', {
      type: 'participant.joined',
      ...joined.scope,
      data: { room: joined.room, participant: { identity: joined.identity, joinedAt: view.joinedAt, leftAt: null } },
    });
    events.emit('connection.opened', { ...connectionOf(joined), at: joined.joinedAt });
  }

  /** Tells the room (every node) and the catalogue that a participant left, and records its connection's end. */
  function announceLeft(p: Departure, close: Ending): void {
    broadcast(p.room.id, { type: 'participant_left', identity: p.identity }, { about: p.id });
    events.emit('catalogue', {
      type: 'participant.left',
      ...p.scope,
      data: {
        room: p.room,
        participant: { identity: p.identity, joinedAt: toIso(p.joinedAt), leftAt: toIso(clock.now()) },
      },
    });
    closed(p, close);
  }

  /** Alone: the place is taken (or refused) here and now. */
  function joinAlone(participant: Omit<Participant, 'joinedAt' | 'id'>, maxParticipants: number | null) {
    const previous = sockets.get(participant.room.id, participant.identity);
    const count = sockets.in(participant.room.id).length;
    if (!previous && maxParticipants !== null && count >= maxParticipants) return 'full';
    if (previous) replaceHere(previous);
    const joined: Participant = { ...participant, id: ids.next('conn'), joinedAt: clock.now() };
    admit(
      joined,
      sockets.in(joined.room.id).map((p) => ({ ...memberOf(p), conn: p.id })),
    );
    return joined;
  }

  const entryOf = (p: Participant): RosterEntry => ({
    node: cluster.nodeId,
    conn: p.id,
    ...memberOf(p),
    projectId: p.scope.projectId,
    environment: p.scope.environment,
    roomName: p.room.name,
  });

  /** With a cluster: the place is taken in Redis, whichever nodes the room's other participants are on. */
  async function joinAcross(
    shared: ClusterRoster,
    participant: Omit<Participant, 'joinedAt' | 'id'>,
    maxParticipants: number | null,
  ): Promise<Participant | JoinRefusal> {
    const joined: Participant = { ...participant, id: ids.next('conn'), joinedAt: clock.now() };
    const pending = sockets.startJoining(joined);
    let taken: Awaited<ReturnType<ClusterRoster['take']>>;
    try {
      taken = await shared.take(joined.room.id, entryOf(joined), maxParticipants);
    } catch (err) {
      logger.warn({ err }, 'a signaling participant could not take its place: Redis is away');
      return 'unavailable';
    } finally {
      sockets.stopJoining(pending);
    }
    if (taken === 'full') return 'full';
    if (pending.ended === 'reset') forgetPlace(joined);
    if (pending.ended) return 'closed';
    // The identity's previous connection closes on whichever node has it (this one included).
    if (taken.previous)
      events.emit('signaling.close', {
        roomId: joined.room.id,
        identity: joined.identity,
        connection: taken.previous.conn,
        ...REPLACED,
      });
    const stale = sockets.get(joined.room.id, joined.identity);
    if (stale) replaceHere(stale);
    admit(
      joined,
      taken.members.filter((entry) => entry.identity !== joined.identity),
    );
    sockets.catchUp(pending);
    // Closed before it was in, so its close event found nothing to remove: it leaves now.
    if (joined.socket.readyState === joined.socket.CLOSED) {
      await leave(joined);
      return 'closed';
    }
    return joined;
  }

  /** Removes the participant if it is still the room's current connection for its identity. Never rejects. */
  function leave(participant: Participant, close?: CloseInfo): Promise<void> {
    if (!sockets.remove(participant)) return Promise.resolve();
    if (!roster) {
      announceLeft(participant, close);
      return Promise.resolve();
    }
    return roster
      .release(participant.room.id, participant.identity, participant.id)
      .catch((err: unknown) => {
        // Redis is away: announced anyway, as it is gone from here; its place goes when Redis is back (reconcile).
        logger.warn({ err }, 'could not give up a signaling participant’s place');
        return true;
      })
      .then((released) => {
        // Not released: a newer connection of its identity took the place over (it stays in the room), or another
        // node found this one lost and announced its leaving already.
        if (released) announceLeft(participant, close);
        else closed(participant, close);
      })
      .catch((err: unknown) => logger.error({ err }, 'a signaling participant’s leaving failed'));
  }

  /** The participant of this node that `to` names, if another than the sender. */
  const localTarget = (sender: Participant, message: RelayedClientMessage) => {
    const to = 'to' in message ? message.to : undefined;
    return to === undefined || to === sender.identity ? undefined : sockets.get(sender.room.id, to);
  };

  /** With a cluster: `to` is looked for on this node, then among every node's participants. */
  async function relayAcross(shared: ClusterRoster, sender: Participant, message: RelayedClientMessage): Promise<void> {
    if (!sockets.isCurrent(sender)) return;
    let target: Member | undefined = localTarget(sender, message);
    const to = 'to' in message ? message.to : undefined;
    try {
      if (!target && to !== undefined && to !== sender.identity) target = await shared.find(sender.room.id, to);
    } catch (err) {
      logger.warn({ err }, 'a signaling message could not be relayed: Redis is away');
      sender.socket.close(CLOSE.tryAgainLater, SIGNALING_DEGRADED_REASON);
      return;
    }
    // Nothing more is relayed for a participant that left meanwhile.
    if (sockets.isCurrent(sender)) relayMessage(sender, message, target, outputOf(sender));
  }

  /** With a cluster, once Redis is back: the places of this node's connections that are gone are given up. */
  async function reconcile(shared: ClusterRoster): Promise<void> {
    const isHere = (conn: string, roomId: string, identity: string) =>
      sockets.get(roomId, identity)?.id === conn ||
      sockets.joining().some(({ participant }) => participant.id === conn);
    for (const { roomId, identity, entry } of await shared.placesOf(cluster.nodeId)) {
      const ours = entry?.node === cluster.nodeId ? entry : undefined;
      if (ours && isHere(ours.conn, roomId, identity)) continue;
      await shared.release(roomId, identity, ours?.conn ?? '');
    }
  }

  let lostNodes: { stop(): void } | undefined;
  if (roster) {
    const shared = roster;
    // Without the bus, frames to the other nodes' participants are lost and places cannot be counted: every socket
    // closes with 1013 (new ones are refused, see the endpoint) until it is back.
    cluster.onBusChange((status) => {
      if (status === 'down') {
        for (const [, members] of sockets.rooms())
          for (const p of members) p.socket.close(CLOSE.tryAgainLater, SIGNALING_DEGRADED_REASON);
        for (const { participant } of sockets.joining())
          participant.socket.close(CLOSE.tryAgainLater, SIGNALING_DEGRADED_REASON);
        return;
      }
      reconcile(shared).catch((err: unknown) =>
        logger.warn({ err }, 'could not give up the places of signaling participants gone while Redis was away'),
      );
    });
    lostNodes = watchLostNodes(cluster, roster, {
      logger,
      left: (roomId, entry) =>
        announceLeft(
          {
            id: entry.conn,
            identity: entry.identity,
            joinedAt: entry.joinedAt,
            scope: { projectId: entry.projectId, environment: entry.environment },
            room: { id: roomId, name: entry.roomName },
          },
          { code: null, reason: LOST_NODE_REASON },
        ),
      lost: (node) => events.emit('signaling.node_lost', { node }),
    });
  }

  return {
    /** Who is in the room now, on every node. With Redis away, those of this node (whose sockets are closing). */
    async participants(roomId: string): Promise<Member[]> {
      const here = sockets.in(roomId);
      if (!roster) return here;
      try {
        return await roster.list(roomId);
      } catch (err) {
        logger.warn({ err }, 'could not list a room’s participants: Redis is away');
        return here;
      }
    },

    /** How many are in the room now, on every node (as `participants`). */
    async count(roomId: string): Promise<number> {
      const here = sockets.in(roomId).length;
      if (!roster) return here;
      try {
        return await roster.count(roomId);
      } catch (err) {
        logger.warn({ err }, 'could not count a room’s participants: Redis is away');
        return here;
      }
    },

    /** Closes the room's connections, on every node (e.g. its live stream ended). */
    closeRoom(roomId: string, code: number, reason: string): void {
      events.emit('signaling.close', { roomId, code, reason });
    },

    /** Closes one participant's connection, if connected to any node (e.g. a host removed from a live stream). */
    disconnect(roomId: string, identity: string, code: number, reason: string): void {
      events.emit('signaling.close', { roomId, identity, code, reason });
    },

    /**
     * Changes close the connections they concern after their commit. One that commits while a socket's admission
     * reads the database finds that socket not yet joined: admission compares this count before and after its
     * lookups, and looks again if it moved, so that what it checked still holds when it joins.
     */
    closings: () => closings,

    /**
     * Adds the participant, replacing an earlier connection of the same identity (on any node). Alone, it is in (or
     * refused) at once, when this is called; with a cluster, once Redis has given it its place.
     */
    join(
      participant: Omit<Participant, 'joinedAt' | 'id'>,
      maxParticipants: number | null,
    ): Promise<Participant | JoinRefusal> {
      if (!roster) return Promise.resolve(joinAlone(participant, maxParticipants));
      return joinAcross(roster, participant, maxParticipants);
    },

    leave,

    /** Relays one client message within the sender's room, enforcing the sender's rights. */
    handle(sender: Participant, message: RelayedClientMessage): void {
      if (!roster) {
        relayMessage(sender, message, localTarget(sender, message), outputOf(sender));
        return;
      }
      const shared = roster;
      const previous = relaying.get(sender) ?? Promise.resolve();
      relaying.set(
        sender,
        previous
          .then(() => relayAcross(shared, sender, message))
          .catch((err: unknown) => logger.error({ err }, 'a signaling message could not be relayed')),
      );
    },

    /**
     * Closes the scope's participants on this node that `drawn` picks (an injected fault), and answers how many: each
     * leaves as a dropped connection does, when its close event comes (`participant_left`, the record).
     */
    dropShare(scope: EnvironmentScope, drawn: () => boolean, code: number, reason: string): number {
      let dropped = 0;
      for (const [, members] of sockets.rooms()) {
        for (const participant of members) {
          if (!isInScope(participant.scope, scope) || !drawn()) continue;
          participant.socket.close(code, reason);
          dropped++;
        }
      }
      return dropped;
    },

    /**
     * Calls `listener` with each joined participant of this node whose socket the server closes to withdraw its place
     * (replaced, removed, its room deleted or ended, its environment reset) at the moment it does, before the close
     * handshake ends: what it was allowed ends at once (the media process stops forwarding its tracks).
     */
    onClosing(listener: (participant: Participant) => void): void {
      closingListeners.add(listener);
    },

    /** Participants connected to this node now, in every room. */
    participantsOnNode: (): number => sockets.count(),

    /**
     * Shutdown: everyone leaves now, while the database is still open (their `participant.left`
     * events are queued for webhooks), then their sockets close; the later close events find
     * nobody left to remove. Resolves once their places in Redis are given up (with a cluster).
     */
    closeAll(code: number, reason: string): Promise<void> {
      lostNodes?.stop();
      const leaving: Promise<void>[] = [];
      for (const [, members] of sockets.rooms()) {
        for (const participant of members) {
          leaving.push(leave(participant, { code, reason }));
          participant.socket.close(code, reason);
        }
      }
      for (const { participant } of sockets.joining()) participant.socket.close(code, reason);
      return Promise.all(leaving).then(() => {});
    },
  };
}

export type SignalingHub = ReturnType<typeof createSignalingHub>;
