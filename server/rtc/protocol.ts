import { z } from 'zod';

/** Close codes of the signaling socket; the close reason says the rest in words. */
export const CLOSE = {
  /** Normal leave, or the server shutting down (1001). */
  normal: 1000,
  goingAway: 1001,
  /** No token in the handshake. */
  badRequest: 4400,
  /** The RTC token is invalid or expired. */
  unauthenticated: 4401,
  /** The identity was removed as a host of the room's live stream, or no longer takes part in it. */
  notParticipant: 4403,
  /** The token's room does not exist (deleted before joining). */
  roomNotFound: 4404,
  /** Another connection joined with the same identity; this one is replaced. */
  replaced: 4409,
  /** The room was deleted while connected. */
  roomDeleted: 4410,
  /** The room's live stream ended: connected sockets close, and no token joins again (the room is gone for them). */
  streamEnded: 4410,
  /** The room is at its maxParticipants. */
  roomFull: 4429,
  /** The client stopped answering pings, or could not keep up with what was sent to it. */
  unresponsive: 4408,
} as const;

const MAX_SDP = 64 * 1024;
const identity = z.string().min(1).max(128);

/** What a client may send once it has received `joined`. */
export const clientMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('offer'), to: identity, sdp: z.string().min(1).max(MAX_SDP) }),
  z.strictObject({ type: z.literal('answer'), to: identity, sdp: z.string().min(1).max(MAX_SDP) }),
  z.strictObject({
    type: z.literal('ice'),
    to: identity,
    /** An RTCIceCandidateInit, or null for end-of-candidates. */
    candidate: z
      .strictObject({
        candidate: z.string().max(1024),
        sdpMid: z.string().max(64).nullable().optional(),
        sdpMLineIndex: z.number().int().min(0).max(1024).nullable().optional(),
        usernameFragment: z.string().max(256).nullable().optional(),
      })
      .nullable(),
  }),
  /** To one participant (`to`) or, without `to`, to everyone else in the room. */
  z.strictObject({ type: z.literal('data'), to: identity.optional(), payload: z.unknown() }),
  z.strictObject({ type: z.literal('ping') }),
  z.strictObject({ type: z.literal('leave') }),
]);
export type ClientMessage = z.infer<typeof clientMessage>;

export interface ParticipantView {
  identity: string;
  name: string | null;
  joinedAt: string;
  permissions: {
    publish: boolean;
    publishAudio: boolean;
    publishVideo: boolean;
    publishData: boolean;
    subscribe: boolean;
  };
}

/** What the server sends. */
export type ServerMessage =
  | {
      type: 'joined';
      room: { id: string; name: string };
      self: ParticipantView;
      participants: ParticipantView[];
      /** Empty: on one machine, host candidates connect peers without STUN or TURN. */
      iceServers: { urls: string[] }[];
    }
  | { type: 'participant_joined'; participant: ParticipantView }
  | { type: 'participant_left'; identity: string }
  | { type: 'offer' | 'answer'; from: string; sdp: string }
  | { type: 'ice'; from: string; candidate: unknown }
  | { type: 'data'; from: string; payload: unknown }
  | { type: 'pong' }
  | { type: 'error'; code: SignalingErrorCode; message: string; refused?: string };

export type SignalingErrorCode =
  | 'invalid_message'
  | 'not_joined'
  | 'participant_not_found'
  | 'publish_not_allowed'
  | 'publish_data_not_allowed'
  | 'subscribe_not_allowed';
