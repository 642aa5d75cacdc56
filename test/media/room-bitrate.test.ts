/**
 * Bitrate feedback through the SFU (server/media/bitrate.ts): subscribers' receiver estimates (REMB) become a REMB to
 * the publisher that caps it to the slowest of them, with a floor. werift clients in this process: the subscribers
 * send REMBs as Chromium does, the publisher reads the one it is sent.
 */
import { expect, it } from 'vitest';
import { RtpHeader, RtpPacket } from 'werift';
import { BITRATE_FLOOR, bitrateCap, sendBitrateCap, UNCAPPED } from '../../server/media/bitrate.js';
import { eventually } from '../support/wait.js';
import { EVERY_RIGHT, useMediaRooms, VIEWER } from './media-room-harness.js';
import { connected, gathered } from './werift-client.js';

const media = useMediaRooms();
const client = () => media.client();

it('caps the publisher to its slowest subscriber’s estimate while it is below what it sends, never below the floor', async () => {
  const { room, last } = media.room();
  await room.join('fast', 'fast', VIEWER);
  await room.join('slow', 'slow', VIEWER);
  await room.join('camera', 'camera', EVERY_RIGHT);

  const publisher = client();
  const video = publisher.addTransceiver('video', { direction: 'sendonly' });
  await publisher.setLocalDescription(await publisher.createOffer());
  await room.publish('camera', await gathered(publisher));
  await publisher.setRemoteDescription({ type: 'answer', sdp: last('publish_answer', 'camera')?.sdp ?? '' });
  await connected(publisher);
  // ≈800 kbps: 100 packets of 1,000 bytes a second.
  let sequenceNumber = 1;
  const sending = setInterval(() => {
    sequenceNumber++;
    const header = new RtpHeader({ sequenceNumber, timestamp: sequenceNumber * 900 });
    video.sender.sendRtp(new RtpPacket(header, Buffer.alloc(1000))).catch(() => {});
  }, 10);

  /** Answers the subscriber's offer; then `estimate(bps)` sends a REMB about the video it receives. */
  const subscribe = async (conn: string) => {
    const pc = client();
    await pc.setRemoteDescription({ type: 'offer', sdp: last('subscribe_offer', conn)?.sdp ?? '' });
    await pc.setLocalDescription(await pc.createAnswer());
    await room.subscribeAnswer(conn, await gathered(pc));
    await connected(pc);
    const { receiver } = pc.getTransceivers()[0];
    const ssrc = receiver.tracks[0]?.ssrc;
    if (ssrc === undefined) throw new Error('the subscriber has no video track');
    return { estimate: (bitsPerSecond: number) => sendBitrateCap(receiver, ssrc, bitsPerSecond) };
  };
  const fast = await subscribe('fast');
  const slow = await subscribe('slow');

  /** What the publisher was last told it may send. */
  const capped = (bitsPerSecond: number) =>
    eventually(
      async () => Number(video.sender.receiverEstimatedMaxBitrate ?? 0),
      // REMB carries 18 bits of mantissa: 100 Mbps arrives as 99,999,744.
      (received) => Math.abs(received - bitsPerSecond) <= bitsPerSecond / 1000,
      5_000,
    );
  await fast.estimate(2_000_000);
  await slow.estimate(400_000);
  expect(await capped(400_000)).toBe(400_000);
  await slow.estimate(50_000);
  expect(await capped(BITRATE_FLOOR)).toBe(BITRATE_FLOOR);
  // The slow subscriber gone, the fast one takes more than is sent: the cap is lifted.
  await room.leave('slow');
  await fast.estimate(1_500_000);
  expect(await capped(UNCAPPED)).toBeGreaterThan(UNCAPPED * 0.999);
  clearInterval(sending);
  await room.close();
}, 30_000);

it('shares a subscriber’s estimate among the videos it receives, and forgets an estimate not renewed', () => {
  const now = 100_000;
  const sending = 1_000_000;
  expect(bitrateCap([], sending, now)).toBeUndefined();
  expect(bitrateCap([{ videoTracks: 1 }], sending, now)).toBeUndefined();
  expect(bitrateCap([{ estimate: { bitsPerSecond: 1_200_000, at: now }, videoTracks: 3 }], sending, now)).toBe(400_000);
  const subscribers = [
    { estimate: { bitsPerSecond: 300_000, at: now - 10_000 }, videoTracks: 1 },
    { estimate: { bitsPerSecond: 900_000, at: now - 500 }, videoTracks: 1 },
  ];
  expect(bitrateCap(subscribers, sending, now)).toBe(900_000);
  // Not congested: the estimate is above what the track sends.
  expect(bitrateCap(subscribers, 800_000, now)).toBeUndefined();
});
