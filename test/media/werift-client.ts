/**
 * werift peer connections in the test process, as a client of the SFU, and a client that sends whatever it likes:
 * RTP written straight to its DTLS transport, whatever its session descriptions negotiated.
 */
import * as werift from 'werift';
import { type PeerConfig, type RTCDataChannel, RTCPeerConnection, RtpHeader, RtpPacket } from 'werift';
import { withoutDefaultStunServer } from '../../server/media/werift-default-stun.js';

// The test's clients ask no STUN server either (werift's default is a public one, even with `iceServers: []`).
withoutDefaultStunServer(werift);

export function newClient(config: Partial<PeerConfig> = {}): RTCPeerConnection {
  return new RTCPeerConnection({
    ...config,
    iceServers: [],
    bundlePolicy: 'max-bundle',
    iceUseIpv6: false,
    iceInterfaceAddresses: { udp4: '127.0.0.1' },
    iceAdditionalHostAddresses: ['127.0.0.1'],
  });
}

/** The local description once every candidate is gathered (the SFU takes no trickled candidate for publish). */
export async function gathered(pc: RTCPeerConnection): Promise<string> {
  if (pc.iceGatheringState !== 'complete')
    await new Promise<void>((resolve) => pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve()));
  return pc.localDescription?.sdp ?? '';
}

export async function connected(pc: RTCPeerConnection): Promise<void> {
  if (pc.connectionState === 'connected') return;
  await new Promise<void>((resolve) => pc.connectionStateChange.subscribe((s) => s === 'connected' && resolve()));
}

/** The payload type an SDP's first m-line of `kind` lists first. */
export function payloadTypeOf(sdp: string, kind: 'audio' | 'video'): number {
  const match = new RegExp(`^m=${kind} \\d+ \\S+ (\\d+)`, 'm').exec(sdp);
  if (!match) throw new Error(`no ${kind} m-line in the SDP`);
  return Number(match[1]);
}

/**
 * Writes one RTP packet on the connection's transport, whatever its m-lines say: `tag`, its payload's first byte,
 * tells a receiver which of the test's streams a forwarded packet came from.
 */
export async function sendRawRtp(
  pc: RTCPeerConnection,
  {
    ssrc,
    payloadType,
    sequenceNumber,
    tag,
  }: { ssrc: number; payloadType: number; sequenceNumber: number; tag: string },
): Promise<void> {
  const transport = pc.dtlsTransports[0];
  if (!transport) throw new Error('the connection has no DTLS transport');
  const packet = new RtpPacket(
    new RtpHeader({ ssrc, payloadType, sequenceNumber, timestamp: sequenceNumber * 960 }),
    Buffer.from(`${tag}-payload`),
  );
  await transport.sendRtp(packet.payload, packet.header);
}

/** What a subscriber received: RTP packets by their payload's tag, data channel messages, and the channels. */
export function countReceived(pc: RTCPeerConnection) {
  const received = { rtp: {} as Record<string, number>, data: 0, channels: [] as RTCDataChannel[] };
  pc.onTrack.subscribe((track) => {
    track.onReceiveRtp.subscribe((rtp) => {
      const tag = rtp.payload.subarray(0, 1).toString();
      received.rtp[tag] = (received.rtp[tag] ?? 0) + 1;
    });
  });
  pc.onDataChannel.subscribe((channel) => {
    received.channels.push(channel);
    channel.onMessage.subscribe(() => {
      received.data++;
    });
  });
  return received;
}
