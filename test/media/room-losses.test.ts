/**
 * Losses repaired through the SFU (server/media/room.ts, peer-connection.ts), with werift clients in this process on
 * lossy links: the publisher's link to the server loses the first transmission of one video packet in 20, and so does
 * one subscriber's link from it. The server NACKs the publisher, which answers with RTX; the subscriber NACKs the
 * server, whose sender answers from the packets it sent last.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { RTCRtpCodecParameters, RtpHeader, RtpPacket, useVP8 } from 'werift';
import { eventually } from '../support/wait.js';
import { EVERY_RIGHT, useMediaRooms, VIEWER } from './media-room-harness.js';
import { connected, gathered, payloadTypeOf } from './werift-client.js';

const PACKETS = 300;
const FIRST_SEQUENCE_NUMBER = 1000;
/** A link that loses the first transmission of every packet whose sequence number is 7 modulo 20 (5 %). */
const lost = (sequenceNumber: number) => sequenceNumber % 20 === 7;

const media = useMediaRooms();
/** A client that offers VP8 with RTX, as Chromium does. */
const client = () =>
  media.client({
    codecs: { audio: [], video: [useVP8(), new RTCRtpCodecParameters({ mimeType: 'video/rtx', clockRate: 90_000 })] },
  });

/**
 * Drops the first arrival of each lost packet of payload type `payloadType` before `handle` sees it (`headerOf` finds
 * the RTP header among its arguments). A retransmission of it passes: as RTX (another payload type), or as itself.
 */
function lossy<A extends unknown[]>(
  handle: (...args: A) => unknown,
  headerOf: (...args: A) => RtpHeader,
  payloadType: () => number,
) {
  const dropped = new Set<number>();
  const wrapped = (...args: A) => {
    const header = headerOf(...args);
    if (header.payloadType === payloadType() && lost(header.sequenceNumber) && !dropped.has(header.sequenceNumber)) {
      dropped.add(header.sequenceNumber);
      return Promise.resolve(0);
    }
    return handle(...args);
  };
  return { wrapped, dropped };
}

it('repairs the losses on the publisher’s link and on a subscriber’s: each subscriber receives ≥ 99 % of packets', async () => {
  const { room, last } = media.room();
  await room.join('clean', 'clean', VIEWER);
  await room.join('noisy', 'noisy', VIEWER);
  await room.join('camera', 'camera', EVERY_RIGHT);

  const publisher = client();
  const video = publisher.addTransceiver('video', { direction: 'sendonly' });
  await publisher.setLocalDescription(await publisher.createOffer());
  const offer = await gathered(publisher);
  expect(offer).toMatch(/^a=ssrc-group:FID \d+ \d+/m);
  await room.publish('camera', offer);
  const publishAnswer = last('publish_answer', 'camera')?.sdp ?? '';
  // The server negotiates RTX for VP8 on the publish connection.
  expect(publishAnswer).toMatch(/^a=rtpmap:\d+ rtx\/90000/m);
  await publisher.setRemoteDescription({ type: 'answer', sdp: publishAnswer });
  await connected(publisher);
  const vp8 = payloadTypeOf(offer, 'video');
  const transport = publisher.dtlsTransports[0];
  const rtx = Number(/^a=rtpmap:(\d+) rtx\/90000/m.exec(publishAnswer)?.[1]);
  const send = transport.sendRtp.bind(transport);
  let rtxSent = 0;
  const uplink = lossy(
    (payload: Buffer, header: RtpHeader) => {
      if (header.payloadType === rtx) rtxSent++;
      return send(payload, header);
    },
    (_payload, header) => header,
    () => vp8,
  );
  transport.sendRtp = uplink.wrapped as typeof transport.sendRtp;

  /** Each subscriber's set of the sequence numbers it received, read from the payload (the original packet's). */
  const subscribe = async (conn: string, lossyDownlink: boolean) => {
    const pc = media.client();
    const received = new Set<number>();
    pc.onTrack.subscribe((track) => track.onReceiveRtp.subscribe((rtp) => received.add(rtp.payload.readUInt16BE(1))));
    const offer = last('subscribe_offer', conn)?.sdp ?? '';
    expect(offer).toMatch(/^a=rtpmap:\d+ rtx\/90000/m);
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    let downlink: { dropped: Set<number> } | undefined;
    if (lossyDownlink) {
      const receiver = pc.getTransceivers()[0].receiver;
      const handle = receiver.handleRtpBySsrc;
      const link = lossy(
        handle,
        (packet) => packet.header,
        () => payloadTypeOf(offer, 'video'),
      );
      receiver.handleRtpBySsrc = link.wrapped as typeof receiver.handleRtpBySsrc;
      downlink = link;
    }
    await pc.setLocalDescription(await pc.createAnswer());
    await room.subscribeAnswer(conn, await gathered(pc));
    await connected(pc);
    return { received, downlink };
  };
  const clean = await subscribe('clean', false);
  const noisy = await subscribe('noisy', true);

  for (let i = 0; i < PACKETS; i++) {
    const sequenceNumber = FIRST_SEQUENCE_NUMBER + i;
    const payload = Buffer.alloc(200);
    payload.write('V');
    payload.writeUInt16BE(sequenceNumber, 1);
    await video.sender.sendRtp(
      new RtpPacket(new RtpHeader({ payloadType: vp8, sequenceNumber, timestamp: sequenceNumber * 3000 }), payload),
    );
    await delay(4);
  }
  // The last packets' repairs may still be on their way.
  const enough = Math.ceil(PACKETS * 0.99);
  await eventually(
    async () => [clean.received.size, noisy.received.size],
    (sizes) => sizes.every((size) => size >= enough),
    5_000,
  ).catch(() => {});
  console.info(
    `SFU losses: ${uplink.dropped.size} of ${PACKETS} lost on the publisher's link, ${noisy.downlink?.dropped.size} more on one subscriber's; received ${clean.received.size} and ${noisy.received.size}, ${rtxSent} retransmissions as RTX by the publisher`,
  );
  expect(uplink.dropped.size).toBe(PACKETS / 20);
  // The publisher's repairs reached the server as RTX (werift's publisher would otherwise resend the packet as is).
  expect(rtxSent).toBeGreaterThanOrEqual(uplink.dropped.size);
  expect(noisy.downlink?.dropped.size).toBeGreaterThan(0);
  expect(clean.received.size).toBeGreaterThanOrEqual(enough);
  expect(noisy.received.size).toBeGreaterThanOrEqual(enough);
  await room.close();
}, 30_000);
