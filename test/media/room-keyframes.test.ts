/**
 * Keyframes on subscribe (server/media/room.ts, keyframes.ts), with werift clients in this process: the publisher of
 * a video track is asked for one (PLI) when a subscriber's connection to it connects, and when the track reaches an
 * already connected subscriber by renegotiation (Chromium sends no periodic keyframes: without it, no picture).
 */
import { expect, it } from 'vitest';
import { type RTCPeerConnection, RtpHeader, RtpPacket } from 'werift';
import { eventually } from '../support/wait.js';
import { EVERY_RIGHT, useMediaRooms, VIEWER } from './media-room-harness.js';
import { connected, gathered } from './werift-client.js';

const media = useMediaRooms();
const client = () => media.client();

it('asks the publisher for a keyframe when a subscriber connects, and when its track reaches a connected one', async () => {
  const { room, last } = media.room();
  const publish = async (conn: string, kind: 'audio' | 'video') => {
    const pc = client();
    const { sender } = pc.addTransceiver(kind, { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    await room.publish(conn, await gathered(pc));
    await pc.setRemoteDescription({ type: 'answer', sdp: last('publish_answer', conn)?.sdp ?? '' });
    await connected(pc);
    // Media flowing, as from a camera: one packet every 20 ms while the room lasts.
    let sequenceNumber = 1;
    const timer = setInterval(() => {
      sequenceNumber++;
      const header = new RtpHeader({ sequenceNumber, timestamp: sequenceNumber * 3000 });
      sender.sendRtp(new RtpPacket(header, Buffer.alloc(100))).catch(() => {});
    }, 20);
    timers.push(timer);
    const keyframeRequests = { count: 0 };
    sender.onPictureLossIndication.subscribe(() => {
      keyframeRequests.count++;
    });
    return keyframeRequests;
  };
  const timers: NodeJS.Timeout[] = [];
  const subscribers = new Map<string, RTCPeerConnection>();
  const answer = async (conn: string) => {
    const pc = subscribers.get(conn) ?? client();
    subscribers.set(conn, pc);
    await pc.setRemoteDescription({ type: 'offer', sdp: last('subscribe_offer', conn)?.sdp ?? '' });
    await pc.setLocalDescription(await pc.createAnswer());
    await room.subscribeAnswer(conn, await gathered(pc));
    await connected(pc);
  };
  const requested = (requests: { count: number }, count: number) =>
    eventually(
      async () => requests.count,
      (n) => n >= count,
      5_000,
    );

  // The viewer is connected, receiving a microphone, when the camera publishes: a renegotiation brings the video.
  await room.join('viewer', 'viewer', VIEWER);
  await room.join('microphone', 'microphone', EVERY_RIGHT);
  await publish('microphone', 'audio');
  await answer('viewer');
  await room.join('camera', 'camera', EVERY_RIGHT);
  const camera = await publish('camera', 'video');
  expect(camera.count).toBe(0);
  await answer('viewer');
  expect(await requested(camera, 1)).toBe(1);

  // A viewer joining late: its first connection, once connected (delayed to the end of the throttle's interval).
  await room.join('late', 'late', VIEWER);
  await answer('late');
  expect(await requested(camera, 2)).toBe(2);
  for (const timer of timers) clearInterval(timer);
  await room.close();
}, 30_000);
