/**
 * The SFU benchmark's processes (bench/sfu.ts drives them over IPC): the publisher (publisher.ts), the subscriber
 * hosts (subscribers.ts, several werift subscribers each) and the floor (floor.ts). What their packets carry, and
 * the one clock they share.
 */

/** Publisher ← bench/sfu.ts. */
export type PublisherRequest =
  /** Join with the token, publish audio and video, and send until `exit`. */
  | { type: 'publish'; url: string; token: string }
  /** Answer the counters now: the window's start and end. */
  | { type: 'mark' }
  | { type: 'exit' };

export type PublisherReply =
  | { type: 'ready' }
  /** Answers `publish`: sending. */
  | { type: 'publish' }
  | { type: 'mark'; mark: PublisherMark }
  | { type: 'failed'; message: string };

export interface PublisherMark {
  /** The index the next packet will carry (packets of both kinds share one sequence). */
  nextIndex: number;
  videoSent: number;
  audioSent: number;
  videoBytes: number;
  keyframesSent: number;
  /** Keyframe requests (PLI) received from the server. */
  plisReceived: number;
  at: number;
  /** The publish connection's state, as the publisher's werift sees it. */
  connectionState: string;
  /** Sizes (RTP header + payload, bytes) of the last packets sent, both kinds in the proportion sent: for the floor. */
  recentSizes: number[];
}

/** A subscriber host ← bench/sfu.ts. */
export type SubscribersRequest =
  /** Join these (each its own socket and subscribe connection), `concurrency` at a time; answered once each has a keyframe. */
  | { type: 'join'; url: string; tokens: string[]; concurrency: number }
  /** From now on, note every packet's index and arrival (forgetting those noted before). */
  | { type: 'record' }
  /** Count what arrived of the packets with index in [from, to). */
  | { type: 'report'; from: number; to: number }
  /** One more subscriber joins, times its first keyframe, and leaves. */
  | { type: 'late-join'; url: string; token: string }
  | { type: 'exit' };

export type SubscribersReply =
  | { type: 'ready' }
  /** Answers `join`. */
  /** `retries`: joins tried again after a failure (its first message in `firstError`). */
  | { type: 'join'; joined: number; failed: number; retries: number; firstError?: string; ms: number }
  | { type: 'record' }
  | { type: 'report'; subscribers: SubscriberCounts[]; latenciesMs: Float64Array; cpuMicros: number }
  | { type: 'late-join'; join: LateJoin }
  | { type: 'failed'; message: string };

export interface SubscriberCounts {
  video: number;
  audio: number;
  /** This subscriber's one-way latency, p99, over the video packets of the range (ms). */
  p99Ms: number;
}

/** Milliseconds from opening the late joiner's socket to each step. */
export interface LateJoin {
  offer: number;
  connected: number;
  /** The first packet of the first keyframe, and its last (the frame complete). */
  keyframeStart: number;
  keyframeComplete: number;
}

/**
 * The trailer every packet's payload ends with: the packet's index, when it was sent (monotonicMs on the publisher),
 * and flags. The SFU forwards payloads untouched (it rewrites sequence numbers and timestamps per subscriber).
 */
export const TRAILER_BYTES = 4 + 8 + 1;
export const FLAG_VIDEO = 1;
export const FLAG_KEYFRAME = 2;
/** The last packet of its frame. */
export const FLAG_FRAME_END = 4;

export function writeTrailer(payload: Buffer, index: number, sentAtMs: number, flags: number): void {
  const at = payload.length - TRAILER_BYTES;
  payload.writeUInt32BE(index >>> 0, at);
  payload.writeDoubleBE(sentAtMs, at + 4);
  payload.writeUInt8(flags, at + 12);
}

export function readTrailer(payload: Buffer): { index: number; sentAtMs: number; flags: number } | undefined {
  if (payload.length < TRAILER_BYTES) return undefined;
  const at = payload.length - TRAILER_BYTES;
  return {
    index: payload.readUInt32BE(at),
    sentAtMs: payload.readDoubleBE(at + 4),
    flags: payload.readUInt8(at + 12),
  };
}

/** CLOCK_MONOTONIC in ms: one clock for every process of the machine, so that a publisher's stamp means the same here. */
export const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;
