/**
 * The messages between the server (the parent) and its media process (server/media/main.ts), over Node's IPC channel
 * (`serialization: 'advanced'`). Both sides parse what they receive with these schemas: the channel crosses a process
 * boundary, and a mismatch (a build of one side older than the other) shows as a refused message, not a crash.
 * Signaling only crosses it, a few messages per join; media never does.
 */
import * as z from 'zod';

const MAX_SDP = 64 * 1024;
const sdp = z.string().min(1).max(MAX_SDP);
/** A room's id, and a connection's `conn_` id (an identity may reconnect: its old connection leaves by its own id). */
const room = z.string().min(1).max(128);
const conn = z.string().min(1).max(128);

export const mediaKind = z.enum(['audio', 'video']);
export type MediaKind = z.infer<typeof mediaKind>;

/** What a participant may do with media, as its token says (the media process is where it is enforced). */
export const mediaRights = z.strictObject({
  publishAudio: z.boolean(),
  publishVideo: z.boolean(),
  subscribe: z.boolean(),
});
export type MediaRights = z.infer<typeof mediaRights>;

/** Pairs a `stats` request with its reply. */
const statsRequestId = z.int().min(0);
const counter = z.number().min(0);

/**
 * One track of a participant as the media process sees it: `publish`, a track it sends to the server (counted on
 * receipt); `subscribe`, a track of `from` the server sends to it. Bytes are RTP payload bytes; `packetsLost` is, for
 * `publish`, sequence-number gaps on receipt, and for `subscribe`, the subscriber's own count from its RTCP receiver
 * reports. `bitrate`: bits per second of payload over the last few seconds (0 until sampled once).
 */
export const trackStats = z.strictObject({
  direction: z.enum(['publish', 'subscribe']),
  kind: mediaKind,
  from: z.string(),
  packets: counter,
  bytes: counter,
  packetsLost: counter,
  bitrate: counter,
});
export type TrackStats = z.infer<typeof trackStats>;

export const participantMediaStats = z.strictObject({
  conn,
  identity: z.string(),
  tracks: z.array(trackStats),
});
export type ParticipantMediaStats = z.infer<typeof participantMediaStats>;

/** A participant's media over its whole connection, when it leaves (the connection log's media columns). */
export const mediaTotals = z.strictObject({
  bytesIn: counter,
  bytesOut: counter,
  packetsLostIn: counter,
  packetsLostOut: counter,
});
export type MediaTotals = z.infer<typeof mediaTotals>;

/** From the server to the media process. */
export const mediaRequest = z.discriminatedUnion('type', [
  /** A participant is in the room: it gets a subscribe offer once there are others' tracks it may receive. */
  z.strictObject({ type: z.literal('join'), room, conn, identity: z.string().min(1).max(128), rights: mediaRights }),
  /** The participant's publish connection: its offer, answered by `publish_answer`. */
  z.strictObject({ type: z.literal('publish'), room, conn, sdp }),
  /** The participant's answer to the server's `subscribe_offer`. */
  z.strictObject({ type: z.literal('subscribe_answer'), room, conn, sdp }),
  /** The connection is gone: its peer connections close and its tracks leave the room. */
  z.strictObject({ type: z.literal('leave'), room, conn }),
  /** The room's media counters now (media-stats.ts), answered by a `stats` reply of the same `id`. */
  z.strictObject({ type: z.literal('stats'), id: statsRequestId, room }),
]);
export type MediaRequest = z.infer<typeof mediaRequest>;

/** A track of the subscribe connection: its m-line (`mid`), whose it is and what it carries. */
export const subscribedTrack = z.strictObject({ mid: z.string(), participant: z.string(), kind: mediaKind });
export type SubscribedTrack = z.infer<typeof subscribedTrack>;

/** From the media process to the server. */
export const mediaReply = z.discriminatedUnion('type', [
  /** Listening for requests (sent once at start), its peer connections all on `udpPort`. */
  z.strictObject({ type: z.literal('ready'), udpPort: z.int().min(1).max(65535) }),
  z.strictObject({ type: z.literal('publish_answer'), conn, sdp }),
  z.strictObject({ type: z.literal('subscribe_offer'), conn, sdp, tracks: z.array(subscribedTrack) }),
  /** A request of this connection could not be carried out (`refused`: the request's type). */
  z.strictObject({ type: z.literal('failed'), conn, refused: z.string(), message: z.string() }),
  /** The counters a `stats` request asked for (no participant: the room has no media here). */
  z.strictObject({ type: z.literal('stats'), id: statsRequestId, participants: z.array(participantMediaStats) }),
  /** A participant that published or subscribed left: what its connection carried. */
  z.strictObject({ type: z.literal('media_totals'), conn, totals: mediaTotals }),
  /** A line for the server's log (the media process has no logger of its own). */
  z.strictObject({ type: z.literal('log'), level: z.enum(['info', 'warn', 'error']), message: z.string() }),
]);
export type MediaReply = z.infer<typeof mediaReply>;
