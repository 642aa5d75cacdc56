import * as z from 'zod';
import { CLOSE_ENVIRONMENT_RESET } from '../environment-reset/close.js';
import { participantSchema } from '../rooms/schemas.js';
import { CLOSE_TRY_AGAIN_LATER } from '../security/socket-limits.js';

/** Close codes of the signaling socket; the close reason says the rest in words. */
export const CLOSE = {
  /** Normal leave, or the server shutting down (1001). */
  normal: 1000,
  goingAway: 1001,
  /**
   * The server, or the token's environment, is at its WebSocket limit, or the server lost the bus to the others (see
   * SIGNALING_DEGRADED_REASON): join again later.
   */
  tryAgainLater: CLOSE_TRY_AGAIN_LATER,
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
  /** The token's environment was reset: its rooms are gone. */
  environmentReset: CLOSE_ENVIRONMENT_RESET,
  /** The room is at its maxParticipants. */
  roomFull: 4429,
  /** The client stopped answering pings, or could not keep up with what was sent to it. */
  unresponsive: 4408,
  /**
   * `--rtc-media sfu` on several nodes: the node holding the room's media (its media home) was lost, and the room's
   * media with it. Join again: the first join picks a new home.
   */
  mediaHomeLost: 4503,
} as const;

/**
 * The close reason of signaling sockets while this node has lost the bus to the other nodes (Redis): it can neither
 * relay to their participants nor count who is in a room, so its sockets close with `tryAgainLater` and new ones are
 * refused until the bus is back.
 */
export const SIGNALING_DEGRADED_REASON = 'signaling degraded: the bus between the servers is lost; join again later';

const MAX_SDP = 64 * 1024;

/** What `rtc.media` picks: peer-to-peer media (`mesh`, the default), or media through the server (`sfu`). */
export const rtcMediaMode = z.enum(['mesh', 'sfu']);
export type RtcMediaMode = z.infer<typeof rtcMediaMode>;
const identity = z.lazy(() => z.string().min(1).max(128));
/** An RTCIceCandidateInit, or null for end-of-candidates. */
const iceCandidate = z.lazy(() =>
  z
    .strictObject({
      candidate: z.string().max(1024),
      sdpMid: z.string().max(64).nullable().optional(),
      sdpMLineIndex: z.number().int().min(0).max(1024).nullable().optional(),
      usernameFragment: z.string().max(256).nullable().optional(),
    })
    .nullable(),
);

/** What a client may send once it has received `joined`. */
export const clientMessage = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('offer'), to: identity, sdp: z.string().min(1).max(MAX_SDP) }),
    z.strictObject({ type: z.literal('answer'), to: identity, sdp: z.string().min(1).max(MAX_SDP) }),
    z.strictObject({
      type: z.literal('ice'),
      to: identity,
      candidate: iceCandidate,
    }),
    /** To one participant (`to`) or, without `to`, to everyone else in the room. */
    z.strictObject({ type: z.literal('data'), to: identity.optional(), payload: z.unknown() }),
    z.strictObject({ type: z.literal('ping') }),
    z.strictObject({ type: z.literal('leave') }),
    /**
     * Experimental, with `serve --rtc-media sfu` only: the offer of the participant's publish connection to the
     * server's media process (its tracks, sendonly, every candidate in it), answered by `publish_answer`.
     */
    z.strictObject({ type: z.literal('publish'), sdp: z.string().min(1).max(MAX_SDP) }),
    /** Experimental (as `publish`): the answer to the server's `subscribe_offer`. */
    z.strictObject({ type: z.literal('subscribe_answer'), sdp: z.string().min(1).max(MAX_SDP) }),
  ]),
);
export type ClientMessage = z.infer<typeof clientMessage>;
/** What the media process takes (`--rtc-media sfu`), not the room's other participants. */
export type MediaClientMessage = Extract<ClientMessage, { type: 'publish' | 'subscribe_answer' }>;
export const isMediaMessage = (message: ClientMessage): message is MediaClientMessage =>
  message.type === 'publish' || message.type === 'subscribe_answer';
/** What is relayed to the room's other participants (or answered by the signaling hub itself). */
export type RelayedClientMessage = Exclude<ClientMessage, MediaClientMessage>;

/** A participant as the signaling frames show it: the same shape as the REST participant list's. */
export type ParticipantView = z.input<typeof participantSchema>;

export const signalingErrorCode = z.lazy(() =>
  z.enum([
    'invalid_message',
    'not_joined',
    'participant_not_found',
    'publish_not_allowed',
    'publish_data_not_allowed',
    'subscribe_not_allowed',
    'media_unavailable',
    'media_failed',
  ]),
);
export type SignalingErrorCode = z.infer<typeof signalingErrorCode>;

/** As an RTCIceServer (`joined.iceServers`, ice-servers.ts): TURN servers with the username and credential they are given together. */
export const iceServerSchema = z.strictObject({
  urls: z.array(z.string()),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;

/**
 * What the server sends. The schemas document the protocol and type the SDK's signaling frames (type-only); the
 * tests parse every frame they receive with them (test/support).
 */
export const serverMessage = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('joined'),
      room: z.strictObject({ id: z.string(), name: z.string() }),
      self: participantSchema,
      participants: z.array(participantSchema),
      /**
       * The server's `--rtc-ice-servers` (STUN, and TURN with its credentials), for the client's peer connections.
       * Empty by default: on one machine and on a LAN, host candidates connect without STUN or TURN.
       */
      iceServers: z.array(iceServerSchema),
      /**
       * Where the room's media goes on this server: `mesh`, peer to peer (offer, answer and ice between participants);
       * `sfu` (`--rtc-media sfu`), through the server's media process (publish and subscribe connections).
       */
      media: rtcMediaMode,
    }),
    z.strictObject({ type: z.literal('participant_joined'), participant: participantSchema }),
    z.strictObject({ type: z.literal('participant_left'), identity: z.string() }),
    z.strictObject({ type: z.literal('offer'), from: z.string(), sdp: z.string() }),
    z.strictObject({ type: z.literal('answer'), from: z.string(), sdp: z.string() }),
    /** `candidate` as the sender gave it: an RTCIceCandidateInit, or null for end-of-candidates. */
    z.strictObject({ type: z.literal('ice'), from: z.string(), candidate: iceCandidate }),
    z.strictObject({ type: z.literal('data'), from: z.string(), payload: z.unknown() }),
    z.strictObject({ type: z.literal('pong') }),
    /** Experimental (`--rtc-media sfu`): the media process's answer to the participant's `publish` offer. */
    z.strictObject({ type: z.literal('publish_answer'), sdp: z.string() }),
    /**
     * Experimental (`--rtc-media sfu`): the server's offer of the participant's subscribe connection, carrying the
     * others' tracks it may receive: each m-line's `mid`, whose track it is and its kind. Answer with
     * `subscribe_answer`.
     */
    z.strictObject({
      type: z.literal('subscribe_offer'),
      sdp: z.string(),
      tracks: z.array(z.strictObject({ mid: z.string(), participant: z.string(), kind: z.enum(['audio', 'video']) })),
    }),
    /**
     * Experimental (`--rtc-media sfu`): the media process holding the room was started again after it died, and the
     * participant has joined it again. Its publish and subscribe connections are gone: publish again on a new publish
     * connection, and answer the next `subscribe_offer` on a new subscribe connection.
     */
    z.strictObject({ type: z.literal('media_reset') }),
    /** A refused message (`refused`: its type); the connection stays open. */
    z.strictObject({
      type: z.literal('error'),
      code: signalingErrorCode,
      message: z.string(),
      refused: z.string().optional(),
    }),
  ]),
);
export type ServerMessage = z.input<typeof serverMessage>;
