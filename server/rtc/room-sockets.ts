import type { InternalEvents } from '../events/bus.js';
import { type Member, type Participant, send } from './participant.js';

export type Frame = InternalEvents['signaling.frame'];

/** Another participant of the room with its connection, as a joining participant is told of it. */
export type Other = Member & { conn: string };

/**
 * A socket joining on this node while Redis decides whether it has a place (with a cluster only): what happens to it
 * meanwhile is kept for when it is in.
 */
export interface Joining {
  participant: Participant;
  /** Frames for it that arrived meanwhile: sent after its `joined`. */
  frames: Frame[];
  /** Closed meanwhile by an environment reset (its place goes quietly), or by a newer connection of its identity. */
  ended?: 'reset' | 'replaced';
}

const addressedTo = (frame: Frame, identity: string) =>
  frame.to === undefined ? identity !== frame.except : identity === frame.to;

/** This node's signaling sockets, by room and identity, those still joining, and the frames of the bus they get. */
export function createRoomSockets() {
  const rooms = new Map<string, Map<string, Participant>>();
  const joining = new Set<Joining>();
  /**
   * The others each participant was told of (identity → connection). With a cluster, news of another participant
   * comes through Redis pub/sub and a joining one's list of the others through a command, in either order: each is
   * sent only when it is news.
   */
  const told = new WeakMap<Participant, Map<string, string>>();

  /** A frame of the bus to a participant: news of the others only when it is news to it. */
  function deliver(p: Participant, { message, about }: Frame): void {
    const known = told.get(p);
    if (known && about !== undefined) {
      if (message.type === 'participant_joined') {
        if (known.get(message.participant.identity) === about) return;
        known.set(message.participant.identity, about);
      } else if (message.type === 'participant_left') {
        if (known.get(message.identity) !== about) return;
        known.delete(message.identity);
      }
    }
    send(p.socket, message);
  }

  return {
    /** The room's participant of that identity here. */
    get: (roomId: string, identity: string): Participant | undefined => rooms.get(roomId)?.get(identity),

    /** The room's participants here, earliest first. */
    in: (roomId: string): Participant[] => [...(rooms.get(roomId)?.values() ?? [])],

    /** Every room with participants here, with them. */
    rooms: (): [string, Participant[]][] => [...rooms].map(([roomId, members]) => [roomId, [...members.values()]]),

    /** Whether the participant is still its identity's connection in the room. */
    isCurrent: (p: Participant): boolean => rooms.get(p.room.id)?.get(p.identity) === p,

    /** How many participants are here, in every room. */
    count(): number {
      let count = 0;
      for (const members of rooms.values()) count += members.size;
      return count;
    },

    /** In the room, told of `others` (its `joined` frame lists them). */
    add(p: Participant, others: Other[]): void {
      let members = rooms.get(p.room.id);
      if (!members) {
        members = new Map();
        rooms.set(p.room.id, members);
      }
      members.set(p.identity, p);
      told.set(p, new Map(others.map((other) => [other.identity, other.conn])));
    },

    /** Out of the room, if it is still its identity's connection there: whether it was. */
    remove(p: Participant): boolean {
      const members = rooms.get(p.room.id);
      if (members?.get(p.identity) !== p) return false;
      members.delete(p.identity);
      if (members.size === 0) rooms.delete(p.room.id);
      return true;
    },

    /** The room is forgotten here, and everyone in it (an environment reset). */
    drop(roomId: string): void {
      rooms.delete(roomId);
    },

    startJoining(participant: Participant): Joining {
      const pending: Joining = { participant, frames: [] };
      joining.add(pending);
      return pending;
    },

    stopJoining(pending: Joining): void {
      joining.delete(pending);
    },

    /** The sockets joining now. */
    joining: (): Joining[] => [...joining],

    /** Sends a joining participant, once in, what arrived for it meanwhile. */
    catchUp(pending: Joining): void {
      for (const frame of pending.frames) deliver(pending.participant, frame);
    },

    /** A frame of the bus: to the participants here it is for, and kept for those joining. */
    receive(frame: Frame): void {
      const recipients =
        frame.to === undefined ? rooms.get(frame.roomId)?.values() : [this.get(frame.roomId, frame.to)];
      for (const p of recipients ?? []) if (p && addressedTo(frame, p.identity)) deliver(p, frame);
      for (const pending of joining) {
        const { room, identity } = pending.participant;
        if (room.id === frame.roomId && addressedTo(frame, identity)) pending.frames.push(frame);
      }
    },
  };
}

export type RoomSockets = ReturnType<typeof createRoomSockets>;
