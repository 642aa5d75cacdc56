/**
 * Headless subscribers for the spike: werift peer connections in a process of their own (not the SFU's), each
 * answering the SFU's offer and counting the RTP packets it receives (unique sequence numbers, so a retransmission
 * repairs a loss) and when each video packet arrived, for the one-way latency. Driven over IPC by run.ts.
 */
import { useOPUS as opusCodec, RTCPeerConnection, useVP8 as vp8Codec } from 'werift';
import {
  monotonicMs,
  percentile,
  type SubscriberReport,
  type SubscribersReply,
  type SubscribersRequest,
} from './protocol.js';

function send(message: SubscribersReply): void {
  process.send?.(message);
}

/** Unique sequence numbers seen in the window, and the span they cover (16-bit, unwrapped). */
class SequenceCounter {
  seen = new Uint8Array(65536);
  unique = 0;
  first: number | undefined;
  highest = 0;
  arrivals = new Float64Array(65536).fill(Number.NaN);

  add(sequenceNumber: number, at: number): void {
    if (this.first === undefined) {
      this.first = sequenceNumber;
      this.highest = sequenceNumber;
    }
    const ahead = (sequenceNumber - this.highest + 65536) % 65536;
    if (ahead > 0 && ahead < 32768) this.highest = sequenceNumber;
    if (!this.seen[sequenceNumber]) {
      this.seen[sequenceNumber] = 1;
      this.unique++;
      this.arrivals[sequenceNumber] = at;
    }
  }

  get expected(): number {
    return this.first === undefined ? 0 : ((this.highest - this.first + 65536) % 65536) + 1;
  }
}

interface Subscriber {
  pc: RTCPeerConnection;
  video: SequenceCounter;
  audio: SequenceCounter;
}

const subscribers = new Map<string, Subscriber>();
let measuring = false;
let cpuAtStart = process.cpuUsage();

async function answer(id: string, offer: string): Promise<string> {
  const pc = new RTCPeerConnection({
    iceServers: [],
    iceUseIpv6: false,
    iceAdditionalHostAddresses: ['127.0.0.1'],
    codecs: { video: [vp8Codec()], audio: [opusCodec()] },
    headerExtensions: { video: [], audio: [] },
  });
  const subscriber: Subscriber = { pc, video: new SequenceCounter(), audio: new SequenceCounter() };
  subscribers.set(id, subscriber);
  pc.ontrack = ({ track }) => {
    const counter = track.kind === 'video' ? 'video' : 'audio';
    track.onReceiveRtp.subscribe((rtp) => {
      if (measuring) subscriber[counter].add(rtp.header.sequenceNumber, monotonicMs());
    });
  };
  await pc.setRemoteDescription({ type: 'offer', sdp: offer });
  await pc.setLocalDescription(await pc.createAnswer());
  if (pc.iceGatheringState !== 'complete') {
    await new Promise<void>((resolve) =>
      pc.iceGatheringStateChange.subscribe((state) => state === 'complete' && resolve()),
    );
  }
  return pc.localDescription?.sdp ?? '';
}

function report(videoReceiptMs: number[]): SubscriberReport[] {
  return [...subscribers].map(([id, { video, audio }]) => {
    const latencies: number[] = [];
    for (let seq = 0; seq < 65536; seq++) {
      const arrived = video.arrivals[seq];
      const received = videoReceiptMs[seq];
      if (!Number.isNaN(arrived) && !Number.isNaN(received)) latencies.push(arrived - received);
    }
    latencies.sort((a, b) => a - b);
    return {
      id,
      videoReceived: video.unique,
      videoExpected: video.expected,
      audioReceived: audio.unique,
      audioExpected: audio.expected,
      latencyP50Ms: percentile(latencies, 50),
      latencyP99Ms: percentile(latencies, 99),
    };
  });
}

process.on('message', async (message: SubscribersRequest) => {
  try {
    switch (message.type) {
      case 'offer':
        send({ type: 'answer', id: message.id, answer: await answer(message.id, message.offer) });
        break;
      case 'window':
        if (message.phase === 'start') {
          for (const subscriber of subscribers.values()) {
            subscriber.video = new SequenceCounter();
            subscriber.audio = new SequenceCounter();
          }
          cpuAtStart = process.cpuUsage();
          measuring = true;
        } else measuring = false;
        break;
      case 'report': {
        const cpu = process.cpuUsage(cpuAtStart);
        send({ type: 'report', subscribers: report(message.videoReceiptMs), cpuMicros: cpu.user + cpu.system });
        break;
      }
      case 'exit':
        process.exit(0);
    }
  } catch (error) {
    send({ type: 'log', text: `subscribers: ${message.type} failed: ${(error as Error).stack}` });
  }
});
send({ type: 'ready' });
// If run.ts dies, so does this process (no orphan holding its ports).
process.on('disconnect', () => process.exit(0));
