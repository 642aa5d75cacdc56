/** Messages between the spike's orchestrator (run.ts) and its child processes (sfu.ts, subscribers.ts), over IPC. */

export type SfuRequest =
  | { type: 'publish'; offer: string }
  | { type: 'subscribe'; id: string; renegotiate?: boolean }
  | { type: 'answer'; id: string; answer: string }
  | { type: 'unsubscribe'; id: string }
  | { type: 'window'; phase: 'start' | 'stop' }
  | { type: 'memory' }
  | { type: 'floor'; packets: number }
  | { type: 'exit' };

export type SfuReply =
  | { type: 'ready' }
  | { type: 'answer'; answer: string }
  | { type: 'offer'; id: string; offer: string }
  | { type: 'window'; stats: WindowStats }
  | { type: 'memory'; rss: number; heapUsed: number; peers: number; connected: number }
  | { type: 'floor'; cpuMicrosPerPacket: number; packets: number }
  | { type: 'log'; text: string };

export interface WindowStats {
  seconds: number;
  /** Publisher packets received (video, audio) in the window. */
  receivedVideo: number;
  receivedAudio: number;
  /** Packets handed to subscribers' senders (one per subscriber per packet). */
  forwarded: number;
  /** CPU time of the whole SFU process over the window, µs (user + system). */
  cpuMicros: number;
  /** Per incoming video packet, how long the fan-out to every subscriber took (ms from receipt to last send). */
  fanoutP50Ms: number;
  fanoutP99Ms: number;
  /** Event-loop delay of the SFU process over the window (ms). */
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  /** Sizes (bytes, header + payload) of the incoming packets, for the floor. */
  sizes: number[];
  /** Monotonic receipt time (ms, process.hrtime) of each incoming video sequence number, NaN if not seen. */
  videoReceiptMs: number[];
  plisSent: number;
  plisAsked: number;
}

export type SubscribersRequest =
  | { type: 'offer'; id: string; offer: string }
  | { type: 'window'; phase: 'start' | 'stop' }
  | { type: 'report'; videoReceiptMs: number[] }
  | { type: 'exit' };

export type SubscribersReply =
  | { type: 'ready' }
  | { type: 'answer'; id: string; answer: string }
  | { type: 'report'; subscribers: SubscriberReport[]; cpuMicros: number }
  | { type: 'log'; text: string };

export interface SubscriberReport {
  id: string;
  videoReceived: number;
  videoExpected: number;
  audioReceived: number;
  audioExpected: number;
  /** One-way latency publisher-receipt-at-SFU → arrival at this subscriber, per video packet (ms). */
  latencyP50Ms: number;
  latencyP99Ms: number;
}

/** A monotonic clock shared by every process of the machine (CLOCK_MONOTONIC), in ms. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}
