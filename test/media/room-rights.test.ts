/**
 * Rights held where the media is (server/media/room.ts): werift clients in this process that send RTP whatever their
 * session descriptions negotiated, and subscribers that count what reaches them. The SDP says what a participant
 * may do; what the media process forwards is what enforces it.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { RTCPeerConnection } from 'werift';
import type { MediaRights } from '../../server/media/protocol.js';
import { eventually } from '../support/wait.js';
import { EVERY_RIGHT, useMediaRooms, VIEWER } from './media-room-harness.js';
import { connected, countReceived, gathered, payloadTypeOf, sendRawRtp } from './werift-client.js';

const AUDIO_ONLY: MediaRights = { publishAudio: true, publishVideo: false, subscribe: true };

const media = useMediaRooms();
const client = () => media.client();

/** A room of the media process, and what it told the server. */
function testRoom() {
  const { room, replies, last } = media.room();

  /** Publishes an audio and a video track; answers the raw RTP sender of each stream the client offered. */
  async function publish(conn: string) {
    const pc = client();
    const audio = pc.addTransceiver('audio', { direction: 'sendonly' });
    const video = pc.addTransceiver('video', { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    const offer = await gathered(pc);
    await room.publish(conn, offer);
    const answer = last('publish_answer', conn)?.sdp ?? '';
    await pc.setRemoteDescription({ type: 'answer', sdp: answer });
    await connected(pc);
    let sequenceNumber = 0;
    const streams = {
      audio: { ssrc: audio.sender.ssrc, payloadType: payloadTypeOf(offer, 'audio') },
      video: { ssrc: video.sender.ssrc, payloadType: payloadTypeOf(offer, 'video') },
    };
    return {
      answer,
      streams,
      send: (stream: { ssrc: number; payloadType: number }, tag: string) =>
        sendRawRtp(pc, { ...stream, sequenceNumber: ++sequenceNumber, tag }),
    };
  }

  /** Answers the participant's last subscribe offer with a client of its own (the same one each time). */
  const subscribers = new Map<string, { pc: RTCPeerConnection; received: ReturnType<typeof countReceived> }>();
  async function subscribe(conn: string) {
    let subscriber = subscribers.get(conn);
    if (!subscriber) {
      const pc = client();
      subscriber = { pc, received: countReceived(pc) };
      subscribers.set(conn, subscriber);
    }
    const offer = last('subscribe_offer', conn);
    if (!offer) throw new Error(`no subscribe offer to ${conn}`);
    await subscriber.pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    await subscriber.pc.setLocalDescription(await subscriber.pc.createAnswer());
    await room.subscribeAnswer(conn, await gathered(subscriber.pc));
    await connected(subscriber.pc);
    return { ...subscriber, tracks: offer.tracks };
  }

  return { room, replies, last, publish, subscribe };
}

/** Sends each packet every 10 ms until `done` says enough arrived (the stream of `until` reached the subscriber). */
async function sendUntil(sends: (() => Promise<void>)[], done: () => boolean): Promise<void> {
  await eventually(
    async () => {
      await Promise.all(sends.map((send) => send()));
      await delay(10);
      return done();
    },
    (enough) => enough,
    10_000,
  );
}

it('rejects the video m-line of a token without publishVideo, and forwards none of the video it sends anyway', async () => {
  const { room, publish, subscribe } = testRoom();
  await room.join('listener', 'listener', EVERY_RIGHT);
  await room.join('speaker', 'speaker', AUDIO_ONLY);
  const speaker = await publish('speaker');
  expect(speaker.answer).toMatch(/^m=audio [1-9]/m);
  expect(speaker.answer).toMatch(/^m=video 0 /m);

  const listener = await subscribe('listener');
  expect(listener.tracks).toEqual([{ mid: expect.any(String), participant: 'speaker', kind: 'audio' }]);
  // Audio as negotiated; video on its own SSRC, as offered; video's payload type on the audio track's SSRC.
  await sendUntil(
    [
      () => speaker.send(speaker.streams.audio, 'A'),
      () => speaker.send(speaker.streams.video, 'V'),
      () => speaker.send({ ...speaker.streams.audio, payloadType: speaker.streams.video.payloadType }, 'W'),
    ],
    () => (listener.received.rtp.A ?? 0) >= 20,
  );
  expect(listener.received.rtp).toEqual({ A: expect.any(Number) });
  await room.close();
}, 30_000);

it('lets a viewer publish nothing, and nothing it sends on its subscribe connection reaches anyone', async () => {
  const { room, replies, publish, subscribe } = testRoom();
  await room.join('viewer', 'viewer', VIEWER);
  await room.join('other', 'other', EVERY_RIGHT);
  await room.join('host', 'host', EVERY_RIGHT);
  const offer = client();
  offer.addTransceiver('audio', { direction: 'sendonly' });
  await offer.setLocalDescription(await offer.createOffer());
  await expect(room.publish('viewer', await gathered(offer))).rejects.toThrow('may not publish');
  expect(replies.filter((r) => r.type === 'publish_answer')).toEqual([]);

  const host = await publish('host');
  const viewer = await subscribe('viewer');
  const other = await subscribe('other');
  // The viewer writes RTP on its subscribe connection (the SSRCs it receives on, and the host's), and data on its
  // data channel; the other subscriber receives the host's audio, and none of it.
  const viewerSsrcs = viewer.pc.getTransceivers().map((t) => t.receiver.tracks[0]?.ssrc ?? 1);
  let sequenceNumber = 0;
  const viewerSends = [...viewerSsrcs, host.streams.audio.ssrc].map(
    (ssrc) => () =>
      sendRawRtp(viewer.pc, {
        ssrc,
        payloadType: host.streams.audio.payloadType,
        sequenceNumber: ++sequenceNumber,
        tag: 'X',
      }),
  );
  await sendUntil(
    [
      () => host.send(host.streams.audio, 'A'),
      ...viewerSends,
      async () => {
        for (const channel of viewer.received.channels) if (channel.readyState === 'open') channel.send('X');
      },
    ],
    () => (other.received.rtp.A ?? 0) >= 20 && viewer.received.channels.some((c) => c.readyState === 'open'),
  );
  expect(other.received.rtp).toEqual({ A: expect.any(Number) });
  expect(other.received.data).toBe(0);
  await room.close();
}, 30_000);

it('offers nothing to a token without subscribe', async () => {
  const { room, last, publish } = testRoom();
  await room.join('deaf', 'deaf', { ...EVERY_RIGHT, subscribe: false });
  await room.join('host', 'host', EVERY_RIGHT);
  await publish('host');
  await publish('deaf');
  expect(last('subscribe_offer', 'host')?.tracks.map((t) => t.participant)).toEqual(['deaf', 'deaf']);
  expect(last('subscribe_offer', 'deaf')).toBeUndefined();
  await room.close();
}, 30_000);
