/**
 * A host of the SFU benchmark's subscribers, in a process of its own (so that their CPU is not the media process's):
 * werift clients that each join `/v1/rtc` with a token that may not publish, answer the server's `subscribe_offer`
 * (and its renegotiations), and note each packet's index (from its trailer, protocol.ts: the SFU rewrites sequence
 * numbers) and its one-way latency, from the publisher's send to the arrival here, on the machine's monotonic clock.
 */
import type { RTCPeerConnection } from 'werift';
import {
  FLAG_FRAME_END,
  FLAG_KEYFRAME,
  FLAG_VIDEO,
  type LateJoin,
  monotonicMs,
  readTrailer,
  type SubscriberCounts,
  type SubscribersReply,
  type SubscribersRequest,
} from './protocol.js';
import { newClient, openSignaling, type Signaling } from './signaling.js';

const send = (reply: SubscribersReply) => process.send?.(reply);
/** A join that has no keyframe in this time failed. */
const JOIN_TIMEOUT_MS = 10_000;
/** A failed join is tried again (a new socket with the same token replaces the last), at most this many times. */
const JOIN_RETRIES = 1;

interface Subscriber {
  pc: RTCPeerConnection;
  signaling: Signaling;
  /** Index → arrival (ms, monotonic), first arrival only, while recording. */
  arrivals: Map<number, number>;
  /** Index → one-way latency (ms), video packets only. */
  videoLatencies: Map<number, number>;
}

const subscribers: Subscriber[] = [];
let recording = false;
let cpuAtRecord = process.cpuUsage();

/** Joins, answers every offer of the server, and calls `onPacket` for every RTP packet that arrives. */
async function join(
  url: string,
  token: string,
  onPacket: (trailer: NonNullable<ReturnType<typeof readTrailer>>, at: number) => void,
): Promise<{ pc: RTCPeerConnection; signaling: Signaling; offerAt: number }> {
  const signaling = await openSignaling(url, token);
  const pc = newClient();
  pc.onTrack.subscribe((track) => {
    track.onReceiveRtp.subscribe((rtp) => {
      const at = monotonicMs();
      const trailer = readTrailer(rtp.payload);
      if (trailer) onPacket(trailer, at);
    });
  });
  const answer = async (sdp: string) => {
    await pc.setRemoteDescription({ type: 'offer', sdp });
    await pc.setLocalDescription(await pc.createAnswer());
    if (pc.iceGatheringState !== 'complete')
      await new Promise<void>((resolve) => pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve()));
    signaling.send({ type: 'subscribe_answer', sdp: pc.localDescription?.sdp });
  };
  const { sdp } = await signaling.next('subscribe_offer');
  const offerAt = monotonicMs();
  await answer(sdp);
  // Renegotiations (tracks coming or going) are answered as they come, one at a time.
  let answering = Promise.resolve();
  signaling.on('subscribe_offer', (offer) => {
    answering = answering.then(() => answer(offer.sdp)).catch((err: unknown) => console.error(err));
  });
  return { pc, signaling, offerAt };
}

/** Resolves with the arrival of the first keyframe's last packet. */
function keyframeWatch() {
  let startAt: number | undefined;
  let resolve: (at: { start: number; complete: number }) => void = () => {};
  const complete = new Promise<{ start: number; complete: number }>((r) => {
    resolve = r;
  });
  const onPacket = (trailer: { flags: number }, at: number) => {
    if (!(trailer.flags & FLAG_KEYFRAME)) return;
    startAt ??= at;
    if (trailer.flags & FLAG_FRAME_END) resolve({ start: startAt, complete: at });
  };
  return { onPacket, complete };
}

/** Joins one subscriber; resolves once its first keyframe arrived, rejects if its connection failed first. */
async function joinOne(url: string, token: string): Promise<void> {
  const subscriber = {
    arrivals: new Map<number, number>(),
    videoLatencies: new Map<number, number>(),
  } as Subscriber;
  const keyframe = keyframeWatch();
  let packets = 0;
  const { pc, signaling } = await join(url, token, (trailer, at) => {
    packets++;
    keyframe.onPacket(trailer, at);
    if (!recording || subscriber.arrivals.has(trailer.index)) return;
    subscriber.arrivals.set(trailer.index, at);
    if (trailer.flags & FLAG_VIDEO) subscriber.videoLatencies.set(trailer.index, at - trailer.sentAtMs);
  });
  const failed = new Promise<never>((_, reject) =>
    pc.connectionStateChange.subscribe(
      (state) => state === 'failed' && reject(new Error('its peer connection failed (ICE or DTLS)')),
    ),
  );
  try {
    await withTimeout(Promise.race([keyframe.complete, failed]), JOIN_TIMEOUT_MS, 'no keyframe within 10 s');
  } catch (err) {
    const state = `ICE ${pc.iceConnectionState}, connection ${pc.connectionState}`;
    signaling.close();
    await pc.close();
    throw new Error(`${(err as Error).message}; ${packets} packets had arrived, ${state}`);
  }
  subscriber.pc = pc;
  subscriber.signaling = signaling;
  subscribers.push(subscriber);
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]);
}

async function joinAll(url: string, tokens: string[], concurrency: number): Promise<SubscribersReply> {
  const startedAt = monotonicMs();
  let joined = 0;
  let failed = 0;
  let retries = 0;
  let firstError: string | undefined;
  const queue = [...tokens];
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let token = queue.shift(); token !== undefined; token = queue.shift()) {
        for (let attempt = 0; ; attempt++) {
          try {
            await joinOne(url, token);
            joined++;
            break;
          } catch (err) {
            firstError ??= (err as Error).message;
            console.error(`bench sfu: a subscriber's join failed (${(err as Error).message})`);
            if (attempt === JOIN_RETRIES) {
              failed++;
              break;
            }
            retries++;
          }
        }
      }
    }),
  );
  return { type: 'join', joined, failed, retries, firstError, ms: monotonicMs() - startedAt };
}

function percentileOf(sorted: number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function report(from: number, to: number): SubscribersReply {
  const all: number[] = [];
  const counts: SubscriberCounts[] = subscribers.map((subscriber) => {
    let video = 0;
    let audio = 0;
    const latencies: number[] = [];
    for (const index of subscriber.arrivals.keys()) {
      if (index < from || index >= to) continue;
      const latency = subscriber.videoLatencies.get(index);
      if (latency === undefined) audio++;
      else {
        video++;
        latencies.push(latency);
        all.push(latency);
      }
    }
    latencies.sort((a, b) => a - b);
    return { video, audio, p99Ms: percentileOf(latencies, 99) };
  });
  const cpu = process.cpuUsage(cpuAtRecord);
  return {
    type: 'report',
    subscribers: counts,
    latenciesMs: Float64Array.from(all),
    cpuMicros: cpu.user + cpu.system,
  };
}

/** A subscriber that joins now: ms from opening its socket to its offer, its connection, and its first keyframe. */
async function lateJoin(url: string, token: string): Promise<LateJoin> {
  const openedAt = monotonicMs();
  const keyframe = keyframeWatch();
  let packets = 0;
  const { pc, signaling, offerAt } = await join(url, token, (trailer, at) => {
    packets++;
    keyframe.onPacket(trailer, at);
  });
  const connectedAt = new Promise<number>((resolve) => {
    if (pc.connectionState === 'connected') resolve(monotonicMs());
    pc.connectionStateChange.subscribe((s) => s === 'connected' && resolve(monotonicMs()));
  });
  try {
    const { start, complete } = await withTimeout(keyframe.complete, 15_000, 'no keyframe in 15 s').catch((err) => {
      const state = `ICE ${pc.iceConnectionState}, connection ${pc.connectionState}`;
      throw new Error(`${(err as Error).message}; ${packets} packets had arrived, ${state}`);
    });
    return {
      offer: offerAt - openedAt,
      connected: (await connectedAt) - openedAt,
      keyframeStart: start - openedAt,
      keyframeComplete: complete - openedAt,
    };
  } finally {
    signaling.close();
    await pc.close();
  }
}

process.on('message', (message: SubscribersRequest) => {
  const fail = (err: unknown) => send({ type: 'failed', message: (err as Error).stack ?? String(err) });
  switch (message.type) {
    case 'join':
      joinAll(message.url, message.tokens, message.concurrency).then(send, fail);
      return;
    case 'record':
      for (const subscriber of subscribers) {
        subscriber.arrivals.clear();
        subscriber.videoLatencies.clear();
      }
      cpuAtRecord = process.cpuUsage();
      recording = true;
      send({ type: 'record' });
      return;
    case 'report':
      send(report(message.from, message.to));
      return;
    case 'late-join':
      lateJoin(message.url, message.token).then((join) => send({ type: 'late-join', join }), fail);
      return;
    case 'exit':
      process.exit(0);
  }
});
// The benchmark is gone: so are its subscribers.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
