/**
 * The spike's SFU: a child process (as `serve` would fork it) holding one publisher peer connection and any number
 * of subscriber peer connections, all werift, forwarding each RTP packet of the publisher to every subscriber.
 * Driven over IPC by run.ts (protocol.ts). Also measures, in this same process, the floor: node:crypto SRTP
 * (AES-128-CTR + HMAC-SHA1-80) of packets of the same sizes plus one UDP send each.
 */
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  MediaStreamTrack,
  RTCPeerConnection as PeerConnection,
  RTCRtpSender,
  RTCRtpTransceiver,
  RtpPacket,
} from 'werift';
import { monotonicMs, percentile, type SfuReply, type SfuRequest, type WindowStats } from './protocol.js';
import { UdpMux } from './udp-mux.js';

/** The shortest gap between two keyframe requests to the publisher; a request inside it is delayed, never dropped. */
const PLI_INTERVAL_MS = Number(process.env.SFU_PLI_INTERVAL_MS ?? 500);
/** `drop`: a request inside the interval is dropped (what the first spike did, for comparison). */
const PLI_MODE = process.env.SFU_PLI_MODE ?? 'delay';
/** `connected` (the design): ask for the keyframe once the subscriber can receive it. `subscribe`: when it asks. */
const PLI_AT = process.env.SFU_PLI_AT ?? 'connected';

// werift's CommonJS build, whose UDP transport udp-mux.ts can replace (its ESM bundle keeps its own copy inside).
const {
  RTCPeerConnection,
  useOPUS: opusCodec,
  useVP8: vp8Codec,
} = createRequire(import.meta.url)('werift') as typeof import('werift');
/** SFU_UDP_PORT: every peer connection of the SFU on this one UDP port (udp-mux.ts); unset, one port each. */
const mux = process.env.SFU_UDP_PORT ? new UdpMux(Number(process.env.SFU_UDP_PORT)) : undefined;
await mux?.listen();

function send(message: SfuReply): void {
  process.send?.(message);
}

/**
 * Nothing may contact the internet: no STUN server (werift's default is Google's). Loopback is added to the host
 * candidates (werift leaves it out). No header extensions at all: transport-cc on the publisher's connection made
 * Chromium's bitrate collapse, and the subscribers' senders would write the publisher's extension ids through.
 */
function newPeerConnection(): PeerConnection {
  return new RTCPeerConnection({
    iceServers: [],
    // One ICE transport per peer connection (werift's default, max-compat, gathers one per m-line as offerer).
    bundlePolicy: 'max-bundle',
    iceUseIpv6: false,
    iceAdditionalHostAddresses: ['127.0.0.1'],
    codecs: { video: [vp8Codec()], audio: [opusCodec()] },
    headerExtensions: { video: [], audio: [] },
  });
}

async function gathered(pc: PeerConnection): Promise<string> {
  if (pc.iceGatheringState !== 'complete') {
    await new Promise<void>((resolve) => {
      const { unSubscribe } = pc.iceGatheringStateChange.subscribe((state) => {
        if (state === 'complete') {
          unSubscribe();
          resolve();
        }
      });
    });
  }
  mux?.register(pc);
  const description = pc.localDescription;
  if (!description) throw new Error('no local description');
  return description.sdp;
}

interface Subscriber {
  pc: PeerConnection;
  video?: RTCRtpSender;
  audio: RTCRtpSender;
}

const subscribers = new Map<string, Subscriber>();
let publisherVideo: { track: MediaStreamTrack; transceiver: RTCRtpTransceiver } | undefined;

// Keyframe requests: on every subscribe and on every subscriber's own PLI, throttled to one per interval.
let lastPliAt = 0;
let pliTimer: NodeJS.Timeout | undefined;
let plisSent = 0;
let plisAsked = 0;
function requestKeyframe(): void {
  plisAsked++;
  const video = publisherVideo;
  if (!video) return;
  const wait = lastPliAt + PLI_INTERVAL_MS - monotonicMs();
  const fire = () => {
    pliTimer = undefined;
    lastPliAt = monotonicMs();
    plisSent++;
    if (video.track.ssrc !== undefined) void video.transceiver.receiver.sendRtcpPLI(video.track.ssrc);
  };
  if (wait <= 0) fire();
  else if (PLI_MODE === 'delay' && !pliTimer) pliTimer = setTimeout(fire, wait);
}

// The measurement window.
let measuring = false;
let windowStart = { at: 0, cpu: process.cpuUsage() };
let receivedVideo = 0;
let receivedAudio = 0;
let forwarded = 0;
let fanoutMs: number[] = [];
let sizes: number[] = [];
let videoReceiptMs = new Float64Array(65536).fill(Number.NaN);
const loopDelay = monitorEventLoopDelay({ resolution: 1 });

/**
 * One copy per incoming packet without the publisher's header extensions (their ids belong to the publisher's
 * connection); werift's sender clones what it is given before rewriting SSRC/PT, so the copy is shared by all.
 */
function forward(rtp: RtpPacket, kind: 'video' | 'audio'): void {
  if (paused) return;
  const receivedAt = monotonicMs();
  const copy = rtp.clone();
  copy.header.extensions = [];
  copy.header.extension = false;
  let count = 0;
  const sends: Promise<void>[] = [];
  for (const subscriber of subscribers.values()) {
    const sender = subscriber[kind];
    if (!sender) continue;
    sends.push(sender.sendRtp(copy));
    count++;
  }
  if (!measuring) return;
  forwarded += count;
  if (sizes.length < 5000) sizes.push(rtp.header.serializeSize + rtp.payload.length);
  if (kind === 'audio') {
    receivedAudio++;
    return;
  }
  receivedVideo++;
  videoReceiptMs[rtp.header.sequenceNumber] = receivedAt;
  void Promise.all(sends).then(() => fanoutMs.push(monotonicMs() - receivedAt));
}

async function publish(offer: string): Promise<string> {
  const pc = newPeerConnection();
  pc.ontrack = ({ track, transceiver }) => {
    if (track.kind === 'video') publisherVideo = { track, transceiver };
    track.onReceiveRtp.subscribe((rtp) => forward(rtp, track.kind as 'video' | 'audio'));
  };
  await pc.setRemoteDescription({ type: 'offer', sdp: offer });
  await pc.setLocalDescription(await pc.createAnswer());
  return gathered(pc);
}

/**
 * A subscriber connection offered by the server. With `renegotiate`, it starts with audio alone and the video track is
 * added once it is connected, by a second offer from the server (as when a participant starts publishing later).
 */
async function subscribe(id: string, renegotiate = false): Promise<string> {
  const pc = newPeerConnection();
  const subscriber: Subscriber = { pc, audio: pc.addTransceiver('audio', { direction: 'sendonly' }).sender };
  const addVideo = () => {
    const video = pc.addTransceiver('video', { direction: 'sendonly' }).sender;
    video.onPictureLossIndication.subscribe(() => requestKeyframe());
    subscriber.video = video;
  };
  if (!renegotiate) addVideo();
  const renegotiateWithVideo = async () => {
    addVideo();
    await pc.setLocalDescription(await pc.createOffer());
    send({ type: 'offer', id, offer: await gathered(pc) });
  };
  pc.connectionStateChange.subscribe((state) => {
    if (state !== 'connected') return;
    if (renegotiate) void renegotiateWithVideo();
    else if (PLI_AT === 'connected') requestKeyframe();
  });
  if (PLI_AT === 'subscribe') requestKeyframe();
  await pc.setLocalDescription(await pc.createOffer());
  const sdp = await gathered(pc);
  subscribers.set(id, subscriber);
  return sdp;
}

/** The floor: what forwarding one packet cannot cost less than (SRTP protect + a UDP send), same process, same run. */
async function floor(packets: number, packetSizes: number[]): Promise<number> {
  const sink = createSocket('udp4');
  sink.bind(0, '127.0.0.1');
  await new Promise((resolve) => sink.once('listening', resolve));
  const out = createSocket('udp4');
  const port = sink.address().port;
  const key = randomBytes(16);
  const authKey = randomBytes(20);
  const roc = Buffer.alloc(4);
  const bodies = packetSizes.map((size) => randomBytes(Math.max(size, 13)));
  const before = process.cpuUsage();
  for (let i = 0; i < packets; i++) {
    const body = bodies[i % bodies.length];
    const header = body.subarray(0, 12);
    const counter = randomBytes(16);
    const encrypted = createCipheriv('aes-128-ctr', key, counter).update(body.subarray(12));
    const tag = createHmac('sha1', authKey).update(header).update(encrypted).update(roc).digest().subarray(0, 10);
    out.send(Buffer.concat([header, encrypted, tag]), port, '127.0.0.1');
    if (i % 100 === 99) await nextTurn();
  }
  await nextTurn();
  const used = process.cpuUsage(before);
  out.close();
  sink.close();
  return (used.user + used.system) / packets;
}

function stopWindow(): WindowStats {
  measuring = false;
  loopDelay.disable();
  const cpu = process.cpuUsage(windowStart.cpu);
  const sortedFanout = fanoutMs.sort((a, b) => a - b);
  const stats: WindowStats = {
    seconds: (monotonicMs() - windowStart.at) / 1000,
    receivedVideo,
    receivedAudio,
    forwarded,
    cpuMicros: cpu.user + cpu.system,
    fanoutP50Ms: percentile(sortedFanout, 50),
    fanoutP99Ms: percentile(sortedFanout, 99),
    loopP50Ms: loopDelay.percentile(50) / 1e6,
    loopP99Ms: loopDelay.percentile(99) / 1e6,
    loopMaxMs: loopDelay.max / 1e6,
    sizes,
    videoReceiptMs: Array.from(videoReceiptMs),
    plisSent,
    plisAsked,
  };
  return stats;
}

let lastSizes: number[] = [];
/** True while the floor is measured, so that its CPU time is the floor's alone (bar receiving the publisher). */
let paused = false;
process.on('message', async (message: SfuRequest) => {
  try {
    switch (message.type) {
      case 'publish':
        send({ type: 'answer', answer: await publish(message.offer) });
        break;
      case 'subscribe':
        send({ type: 'offer', id: message.id, offer: await subscribe(message.id, message.renegotiate) });
        break;
      case 'answer': {
        const subscriber = subscribers.get(message.id);
        const renegotiated =
          subscriber?.pc.remoteDescription !== null && subscriber?.pc.remoteDescription !== undefined;
        await subscriber?.pc.setRemoteDescription({ type: 'answer', sdp: message.answer });
        // After a renegotiation that added the video, its first keyframe (the first offer's PLI is on connected).
        if (renegotiated) requestKeyframe();
        break;
      }
      case 'unsubscribe': {
        const subscriber = subscribers.get(message.id);
        subscribers.delete(message.id);
        await subscriber?.pc.close();
        break;
      }
      case 'window':
        if (message.phase === 'start') {
          receivedVideo = receivedAudio = forwarded = plisSent = plisAsked = 0;
          fanoutMs = [];
          sizes = [];
          videoReceiptMs = new Float64Array(65536).fill(Number.NaN);
          loopDelay.reset();
          loopDelay.enable();
          windowStart = { at: monotonicMs(), cpu: process.cpuUsage() };
          measuring = true;
        } else {
          const stats = stopWindow();
          lastSizes = stats.sizes;
          send({ type: 'window', stats });
        }
        break;
      case 'memory': {
        globalThis.gc?.();
        const usage = process.memoryUsage();
        send({
          type: 'memory',
          rss: usage.rss,
          heapUsed: usage.heapUsed,
          peers: subscribers.size,
          connected: [...subscribers.values()].filter(({ pc }) => pc.connectionState === 'connected').length,
        });
        break;
      }
      case 'floor':
        paused = true;
        send({
          type: 'floor',
          packets: message.packets,
          cpuMicrosPerPacket: await floor(message.packets, lastSizes.length ? lastSizes : [1100]).finally(() => {
            paused = false;
          }),
        });
        break;
      case 'exit':
        process.exit(0);
    }
  } catch (error) {
    send({ type: 'log', text: `sfu: ${message.type} failed: ${(error as Error).stack}` });
  }
});
send({ type: 'ready' });
// If run.ts dies, so does this process (no orphan holding its ports).
process.on('disconnect', () => process.exit(0));
