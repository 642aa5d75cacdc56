import type { WebSocket } from 'ws';
import { type EnvironmentScope, isInScope } from '../../db/scope.js';
import { toIso } from '../clock.js';
import type { Infrastructure } from '../context.js';
import { ENVIRONMENT_RESET_REASON } from '../environment-reset/close.js';
import type { ConnectionInfo } from '../events/bus.js';
import { sendJson } from '../http/socket-endpoint.js';
import { canSendAudio, canSendVideo, type RtcPermissions } from './permissions.js';
import {
  CLOSE,
  type ClientMessage,
  type ParticipantView,
  type ServerMessage,
  type SignalingErrorCode,
} from './protocol.js';
import { sentMediaKinds } from './sdp.js';

export interface Participant {
  /** `conn_` id: the connection's record in the observability log. */
  id: string;
  identity: string;
  name: string | null;
  joinedAt: number;
  permissions: RtcPermissions;
  scope: EnvironmentScope;
  room: { id: string; name: string };
  socket: WebSocket;
}

export const viewOf = (p: Participant): ParticipantView => ({
  identity: p.identity,
  name: p.name,
  joinedAt: toIso(p.joinedAt),
  permissions: { ...p.permissions },
});

export const send = (socket: WebSocket, message: ServerMessage): void => sendJson(socket, message);

/** Why an SDP from `sender` to `target` may not be relayed, if it may not. */
function refuseSdp(sender: Participant, target: Participant, message: ClientMessage & { sdp: string }) {
  const sends = sentMediaKinds(message.sdp);
  if (
    (sends.has('audio') && !canSendAudio(sender.permissions)) ||
    (sends.has('video') && !canSendVideo(sender.permissions))
  ) {
    const kinds = [sends.has('audio') && 'audio', sends.has('video') && 'video'].filter(Boolean).join(' and ');
    return { code: 'publish_not_allowed' as const, message: `Your token does not allow publishing ${kinds}.` };
  }
  // Offering a data channel is publishing data; accepting a peer's channel in an answer is not.
  if (message.type === 'offer' && sends.has('application') && !sender.permissions.publishData) {
    return { code: 'publish_data_not_allowed' as const, message: 'Your token does not allow publishing data.' };
  }
  if ((sends.has('audio') || sends.has('video')) && !target.permissions.subscribe) {
    return { code: 'subscribe_not_allowed' as const, message: `${target.identity} may not subscribe to media.` };
  }
  return undefined;
}

/** How a socket closed, when known. */
export interface CloseInfo {
  code: number;
  reason: string;
}

/**
 * The live participants of every room, and the relay between them. Everything here is in memory:
 * participants are connections, gone when the socket is.
 */
export function createSignalingHub({ clock, ids, events }: Infrastructure) {
  const rooms = new Map<string, Map<string, Participant>>();
  /**
   * How many times a change in the database (a deletion, an end, a removal, a reset) closed connections, counted
   * whether or not anyone was connected (see `closings()` below).
   */
  let closings = 0;

  const others = (p: Participant) => [...(rooms.get(p.room.id)?.values() ?? [])].filter((o) => o !== p);
  const connectionOf = (p: Participant): ConnectionInfo => ({
    id: p.id,
    ...p.scope,
    kind: 'signaling',
    identity: p.identity,
    roomId: p.room.id,
    conversationId: null,
  });
  const closed = (p: Participant, close: CloseInfo | undefined) =>
    events.emit('connection.closed', {
      ...connectionOf(p),
      at: clock.now(),
      code: close?.code ?? null,
      reason: close?.reason ?? null,
    });
  const error = (p: Participant, code: SignalingErrorCode, message: string, refused?: string) =>
    send(p.socket, { type: 'error', code, message, ...(refused ? { refused } : {}) });

  function closeRoom(roomId: string, code: number, reason: string): void {
    closings++;
    for (const participant of rooms.get(roomId)?.values() ?? []) participant.socket.close(code, reason);
  }

  events.on('room.deleted', ({ roomId }) => closeRoom(roomId, CLOSE.roomDeleted, 'the room was deleted'));
  events.on('project.deleted', ({ projectId }) => {
    closings++;
    for (const [roomId, members] of rooms) {
      const first = members.values().next().value;
      if (first?.scope.projectId === projectId) closeRoom(roomId, CLOSE.roomDeleted, 'the project was deleted');
    }
  });

  /**
   * An environment reset: the scope's rooms are gone, so their participants are forgotten now (no `participant.left`
   * event: nobody in the environment is left to hear it, and its webhook deliveries were just cleared) and their
   * sockets close; the `leave` of each close then finds nobody to remove.
   */
  events.on('environment.reset', (scope) => {
    closings++;
    const at = clock.now();
    for (const [roomId, members] of rooms) {
      const [first] = members.values();
      if (!first || !isInScope(first.scope, scope)) continue;
      rooms.delete(roomId);
      for (const participant of members.values()) {
        const close = { code: CLOSE.environmentReset, reason: ENVIRONMENT_RESET_REASON };
        events.emit('connection.closed', { ...connectionOf(participant), at, ...close });
        participant.socket.close(close.code, close.reason);
      }
    }
  });

  return {
    participants(roomId: string): Participant[] {
      return [...(rooms.get(roomId)?.values() ?? [])];
    },

    closeRoom,

    /** Closes one participant's connection, if connected (e.g. a host removed from a live stream). */
    disconnect(roomId: string, identity: string, code: number, reason: string): void {
      closings++;
      rooms.get(roomId)?.get(identity)?.socket.close(code, reason);
    },

    /**
     * Changes close the connections they concern after their commit. One that commits while a socket's admission
     * reads the database finds that socket not yet joined: admission compares this count before and after its
     * lookups, and looks again if it moved, so that what it checked still holds when it joins.
     */
    closings: () => closings,

    count(roomId: string): number {
      return rooms.get(roomId)?.size ?? 0;
    },

    /** Adds the participant, replacing an earlier connection of the same identity. */
    join(participant: Omit<Participant, 'joinedAt' | 'id'>, maxParticipants: number | null): Participant | 'full' {
      let members = rooms.get(participant.room.id);
      const previous = members?.get(participant.identity);
      if (!previous && maxParticipants !== null && (members?.size ?? 0) >= maxParticipants) return 'full';
      if (!members) {
        members = new Map();
        rooms.set(participant.room.id, members);
      }
      if (previous) {
        members.delete(participant.identity);
        const reason = 'replaced by a new connection with the same identity';
        previous.socket.close(CLOSE.replaced, reason);
        // Its own close event will find it no longer current: record its end here.
        closed(previous, { code: CLOSE.replaced, reason });
      }
      const joined: Participant = { ...participant, id: ids.next('conn'), joinedAt: clock.now() };
      members.set(joined.identity, joined);
      const view = viewOf(joined);
      send(joined.socket, {
        type: 'joined',
        room: joined.room,
        self: view,
        participants: others(joined).map(viewOf),
        iceServers: [],
      });
      for (const other of others(joined)) send(other.socket, { type: 'participant_joined', participant: view });
      events.emit('catalogue', {
        type: 'participant.joined',
        ...joined.scope,
        data: { room: joined.room, participant: { identity: joined.identity, joinedAt: view.joinedAt, leftAt: null } },
      });
      events.emit('connection.opened', { ...connectionOf(joined), at: joined.joinedAt });
      return joined;
    },

    /** Removes the participant if it is still the room's current connection for its identity. */
    leave(participant: Participant, close?: CloseInfo): void {
      const members = rooms.get(participant.room.id);
      if (members?.get(participant.identity) !== participant) return;
      members.delete(participant.identity);
      if (members.size === 0) rooms.delete(participant.room.id);
      for (const other of members.values())
        send(other.socket, { type: 'participant_left', identity: participant.identity });
      events.emit('catalogue', {
        type: 'participant.left',
        ...participant.scope,
        data: {
          room: participant.room,
          participant: {
            identity: participant.identity,
            joinedAt: toIso(participant.joinedAt),
            leftAt: toIso(clock.now()),
          },
        },
      });
      closed(participant, close);
    },

    /** Relays one client message within the sender's room, enforcing the sender's rights. */
    handle(sender: Participant, message: ClientMessage): void {
      switch (message.type) {
        case 'ping':
          send(sender.socket, { type: 'pong' });
          return;
        case 'leave':
          sender.socket.close(CLOSE.normal, 'left');
          return;
        case 'data': {
          if (!sender.permissions.publishData) {
            error(sender, 'publish_data_not_allowed', 'Your token does not allow publishing data.', 'data');
            return;
          }
          const targets =
            message.to === undefined ? others(sender) : others(sender).filter((o) => o.identity === message.to);
          if (message.to !== undefined && targets.length === 0) {
            error(sender, 'participant_not_found', `No participant ${message.to} in this room.`, 'data');
            return;
          }
          for (const target of targets)
            send(target.socket, { type: 'data', from: sender.identity, payload: message.payload });
          return;
        }
        default: {
          const target = others(sender).find((o) => o.identity === message.to);
          if (!target) {
            error(sender, 'participant_not_found', `No participant ${message.to} in this room.`, message.type);
            return;
          }
          if (message.type === 'ice') {
            send(target.socket, { type: 'ice', from: sender.identity, candidate: message.candidate });
            return;
          }
          const refusal = refuseSdp(sender, target, message);
          if (refusal) {
            error(sender, refusal.code, refusal.message, message.type);
            return;
          }
          send(target.socket, { type: message.type, from: sender.identity, sdp: message.sdp });
        }
      }
    },

    /** Participants connected to this node now, in every room. */
    participantsOnNode(): number {
      let count = 0;
      for (const members of rooms.values()) count += members.size;
      return count;
    },

    /**
     * Shutdown: everyone leaves now, while the database is still open (their `participant.left`
     * events are queued for webhooks), then their sockets close; the later close events find
     * nobody left to remove.
     */
    closeAll(code: number, reason: string): void {
      for (const members of [...rooms.values()]) {
        for (const participant of [...members.values()]) {
          this.leave(participant, { code, reason });
          participant.socket.close(code, reason);
        }
      }
    },
  };
}

export type SignalingHub = ReturnType<typeof createSignalingHub>;
