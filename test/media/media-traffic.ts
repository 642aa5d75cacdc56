/**
 * Media through the SFU for tests that read what the server counts of it: a werift publisher on a signaling socket
 * sending raw audio RTP of a known size with every tenth sequence number missing, and a werift subscriber.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { type RTCPeerConnection, RtpHeader } from 'werift';
import type { SocketClient } from '../support/socket-client.js';
import { connected, gathered, newClient, payloadTypeOf } from './werift-client.js';

/** The publisher's payload: 500 bytes every 10 ms is ≈400 kbps when the timer keeps time. */
export const PAYLOAD = Buffer.alloc(500, 7);
/** Every tenth sequence number is never sent: 10 % lost before the server. */
const skipped = (sequenceNumber: number) => sequenceNumber % 10 === 5;

/** Publishes one audio track on the socket and sends until `stop()`, which resolves once the sending has ended. */
export async function publishLossyAudio(socket: SocketClient, clients: RTCPeerConnection[]) {
  const pc = newClient();
  clients.push(pc);
  const audio = pc.addTransceiver('audio', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const offer = await gathered(pc);
  socket.send({ type: 'publish', sdp: offer });
  await pc.setRemoteDescription({ type: 'answer', sdp: (await socket.next('publish_answer', 10_000)).sdp });
  await connected(pc);
  const transport = pc.dtlsTransports[0];
  if (!transport) throw new Error('the publish connection has no DTLS transport');
  const payloadType = payloadTypeOf(offer, 'audio');
  let sending = true;
  const sender = (async () => {
    for (let sequenceNumber = 1; sending; sequenceNumber++) {
      if (skipped(sequenceNumber)) continue;
      const header = new RtpHeader({
        ssrc: audio.sender.ssrc,
        payloadType,
        sequenceNumber,
        timestamp: sequenceNumber * 480,
      });
      await transport.sendRtp(PAYLOAD, header);
      await delay(10);
    }
  })();
  return {
    async stop() {
      sending = false;
      await sender;
    },
  };
}

/** Answers the socket's subscribe offer; `received()` counts the RTP packets that reached it. */
export async function subscribe(socket: SocketClient, clients: RTCPeerConnection[]) {
  const pc = newClient();
  clients.push(pc);
  let received = 0;
  pc.onTrack.subscribe((track) => track.onReceiveRtp.subscribe(() => received++));
  const offer = await socket.next('subscribe_offer', 10_000);
  await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
  await pc.setLocalDescription(await pc.createAnswer());
  socket.send({ type: 'subscribe_answer', sdp: await gathered(pc) });
  await connected(pc);
  return { received: () => received };
}
