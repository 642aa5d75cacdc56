/**
 * The SFU benchmark's publisher, in a process of its own: a werift client that joins `/v1/rtc` with an RTC token,
 * publishes an audio and a video track through the real protocol (`publish` → `publish_answer`), and sends what a
 * camera and a microphone would: VP8-sized video at 30 frames a second and about 1 Mbps (a keyframe first and on every
 * keyframe request, PLI, from the server; none otherwise, as Chromium), and Opus-sized audio every 20 ms. The payloads
 * are not a picture: the SFU forwards them without decoding, and each ends with a trailer (protocol.ts) that tells a
 * subscriber which packet it is and when it was sent.
 */
import { randomBytes } from 'node:crypto';
import { RtpHeader, RtpPacket } from 'werift';
import {
  FLAG_FRAME_END,
  FLAG_KEYFRAME,
  FLAG_VIDEO,
  monotonicMs,
  type PublisherMark,
  type PublisherReply,
  type PublisherRequest,
  TRAILER_BYTES,
  writeTrailer,
} from './protocol.js';
import { newClient, openSignaling } from './signaling.js';

const FRAME_MS = 1000 / 30;
const AUDIO_MS = 20;
/** A delta frame: 4 packets of about 1,000 bytes (≈ 1 Mbps at 30 fps); a keyframe: 20 KB, as a 640×480 VP8 one. */
const DELTA_FRAME_BYTES = 4 * 1000;
const KEYFRAME_BYTES = 20_000;
const MAX_PAYLOAD = 1100;
const AUDIO_PAYLOAD = 80;
const VIDEO_CLOCK_PER_FRAME = 3000;
const AUDIO_CLOCK_PER_PACKET = 960;
/** RTP header without extensions (the server negotiates none). */
const RTP_HEADER_BYTES = 12;

const send = (reply: PublisherReply) => process.send?.(reply);
const filler = randomBytes(KEYFRAME_BYTES);

let connectionState = 'new';
const counters = { nextIndex: 0, videoSent: 0, audioSent: 0, videoBytes: 0, keyframesSent: 0, plisReceived: 0 };
const recentSizes: number[] = [];
const noteSize = (size: number) => {
  recentSizes.push(size);
  if (recentSizes.length > 2000) recentSizes.shift();
};

/**
 * A VP8 payload as an encoder's packetizer makes it: the payload descriptor (one byte, S set on a frame's first
 * packet), on the first packet the VP8 header (P, bit 0, clear on a keyframe; a keyframe's start code and 640×480),
 * then bytes, then the trailer.
 */
function videoPayload(size: number, first: boolean, keyframe: boolean, flags: number): Buffer {
  const payload = Buffer.from(filler.subarray(0, size));
  payload[0] = first ? 0x10 : 0x00;
  if (first) {
    payload[1] = keyframe ? 0x00 : 0x01;
    if (keyframe) payload.set([0x00, 0x00, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0xe0, 0x01], 2);
  }
  writeTrailer(payload, counters.nextIndex++, monotonicMs(), flags);
  return payload;
}

async function publish(url: string, token: string): Promise<void> {
  const signaling = await openSignaling(url, token);
  const pc = newClient();
  pc.connectionStateChange.subscribe((state) => {
    connectionState = state;
  });
  const audio = pc.addTransceiver('audio', { direction: 'sendonly' });
  const video = pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  if (pc.iceGatheringState !== 'complete')
    await new Promise<void>((resolve) => pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve()));
  signaling.send({ type: 'publish', sdp: pc.localDescription?.sdp });
  const { sdp } = await signaling.next('publish_answer');
  await pc.setRemoteDescription({ type: 'answer', sdp });
  if (pc.connectionState !== 'connected')
    await new Promise<void>((resolve) => pc.connectionStateChange.subscribe((s) => s === 'connected' && resolve()));

  let keyframeWanted = true;
  video.sender.onPictureLossIndication.subscribe(() => {
    counters.plisReceived++;
    keyframeWanted = true;
  });
  let videoSequence = 0;
  let audioSequence = 0;
  let frames = 0;
  let audioPackets = 0;
  const startedAt = monotonicMs();

  const sendFrame = () => {
    const keyframe = keyframeWanted;
    keyframeWanted = false;
    if (keyframe) counters.keyframesSent++;
    // ±10% around the mean, as an encoder's frames vary.
    const bytes = Math.round((keyframe ? KEYFRAME_BYTES : DELTA_FRAME_BYTES) * (0.9 + Math.random() * 0.2));
    const packets = Math.ceil(bytes / MAX_PAYLOAD);
    const timestamp = (frames++ * VIDEO_CLOCK_PER_FRAME) >>> 0;
    for (let i = 0; i < packets; i++) {
      const last = i === packets - 1;
      const size = Math.max(TRAILER_BYTES + 12, Math.round(bytes / packets));
      const flags = FLAG_VIDEO | (keyframe ? FLAG_KEYFRAME : 0) | (last ? FLAG_FRAME_END : 0);
      const payload = videoPayload(size, i === 0, keyframe, flags);
      const header = new RtpHeader({ sequenceNumber: videoSequence++ & 0xffff, timestamp, marker: last });
      counters.videoSent++;
      counters.videoBytes += size;
      noteSize(RTP_HEADER_BYTES + size);
      video.sender.sendRtp(new RtpPacket(header, payload)).catch(() => {});
    }
  };
  const sendAudio = () => {
    const payload = Buffer.from(filler.subarray(0, AUDIO_PAYLOAD));
    writeTrailer(payload, counters.nextIndex++, monotonicMs(), 0);
    const timestamp = (audioPackets++ * AUDIO_CLOCK_PER_PACKET) >>> 0;
    const header = new RtpHeader({ sequenceNumber: audioSequence++ & 0xffff, timestamp, marker: false });
    counters.audioSent++;
    noteSize(RTP_HEADER_BYTES + AUDIO_PAYLOAD);
    audio.sender.sendRtp(new RtpPacket(header, payload)).catch(() => {});
  };
  // Whatever is due by the clock: a late timer sends late, never less.
  setInterval(() => {
    const elapsed = monotonicMs() - startedAt;
    while (frames * FRAME_MS <= elapsed) sendFrame();
    while (audioPackets * AUDIO_MS <= elapsed) sendAudio();
  }, 5);
}

process.on('message', (message: PublisherRequest) => {
  switch (message.type) {
    case 'publish':
      publish(message.url, message.token).then(
        () => send({ type: 'publish' }),
        (err: unknown) => send({ type: 'failed', message: (err as Error).stack ?? String(err) }),
      );
      return;
    case 'mark': {
      const mark: PublisherMark = { ...counters, at: monotonicMs(), connectionState, recentSizes: [...recentSizes] };
      send({ type: 'mark', mark });
      return;
    }
    case 'exit':
      process.exit(0);
  }
});
// The benchmark is gone: so is its publisher.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
