/**
 * A participant of the SFU as the media tests drive it: its signaling socket, a werift publish connection that sends
 * raw tagged audio, and a werift subscribe connection that counts what reaches it (werift-client.ts).
 */
import type { RTCPeerConnection } from 'werift';
import type { SocketClient } from '../support/socket-client.js';
import { connected, countReceived, gathered, newClient, payloadTypeOf, sendRawRtp } from './werift-client.js';

/**
 * Publishes audio and video on the socket's publish connection; resolves with the server's answer and a sender of raw
 * audio tagged `tag`.
 */
export async function publishAudio(socket: SocketClient, tag: string) {
  const pc = newClient();
  const audio = pc.addTransceiver('audio', { direction: 'sendonly' });
  pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const offer = await gathered(pc);
  socket.send({ type: 'publish', sdp: offer });
  const { sdp: answer } = await socket.next('publish_answer', 15_000);
  await pc.setRemoteDescription({ type: 'answer', sdp: answer });
  await connected(pc);
  let sequenceNumber = 0;
  const payloadType = payloadTypeOf(offer, 'audio');
  const send = () => sendRawRtp(pc, { ssrc: audio.sender.ssrc, payloadType, sequenceNumber: ++sequenceNumber, tag });
  return { pc, send, answer };
}

/** Answers the socket's next subscribe offer with a connection that counts what it receives. */
export async function subscribeCounting(socket: SocketClient): Promise<{
  pc: RTCPeerConnection;
  received: ReturnType<typeof countReceived>;
  offer: string;
  tracks: { mid: string; participant: string; kind: string }[];
}> {
  const pc = newClient();
  const received = countReceived(pc);
  const offer = await socket.next('subscribe_offer', 15_000);
  await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
  await pc.setLocalDescription(await pc.createAnswer());
  socket.send({ type: 'subscribe_answer', sdp: await gathered(pc) });
  await connected(pc);
  return { pc, received, offer: offer.sdp, tracks: offer.tracks };
}
