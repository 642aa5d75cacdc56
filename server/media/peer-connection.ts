/**
 * werift's peer connections as the media process makes them (docs/architecture.md, "What werift needs worked
 * around"): all on the media process's one UDP port, through its mux (udp-mux.ts).
 */
import type { RTCPeerConnection as PeerConnection } from 'werift';
import type { MediaKind } from './protocol.js';
import type { UdpMux } from './udp-mux.js';
import { werift } from './werift.js';

// Renamed: werift's codec helpers are not React hooks, whatever their names say to the linter.
const { useOPUS: opusCodec, useVP8: vp8Codec, RTCRtpCodecParameters } = werift;

/**
 * VP8 and its retransmissions (RTX, RFC 4588) on their own SSRC. werift numbers the codecs 96, 97 … in the order
 * given (audio's first) and gives an RTX the payload type just before it as `apt`, so RTX follows VP8. On the publish
 * connection, the publisher answers the server's NACKs with RTX, which werift's receiver routes by the SSRC the
 * offer's `ssrc-group:FID` names and unwraps into the original packet before the track sees it: a repaired packet
 * is forwarded as any other (late, with its own sequence number). On the subscribe connection, werift's sender
 * answers a subscriber's NACK with RTX, from the last 128 packets it sent.
 */
const videoCodecs = () => [vp8Codec(), new RTCRtpCodecParameters({ mimeType: 'video/rtx', clockRate: 90_000 })];

export type { PeerConnection };

const ALL_KINDS: ReadonlySet<MediaKind> = new Set(['audio', 'video']);

/**
 * No ICE server at all (werift's default is Google's STUN host): nothing contacts the internet, and host candidates
 * are all a machine needs. Loopback is announced too (werift leaves it out of its host candidates). One ICE transport
 * per connection (`max-bundle`, which the mux sets; werift's default gathers one per m-line as offerer). No header
 * extensions: the publisher's would be written through to every subscriber, and transport-cc on the publish
 * connection made Chromium's bitrate collapse (issue 47). `kinds`: the media it may receive; an offered m-line of
 * another kind has no codec in common, so werift's answer rejects it (port 0), as a publisher's rights require.
 */
export function newPeerConnection(mux: UdpMux, kinds: ReadonlySet<MediaKind> = ALL_KINDS): PeerConnection {
  const pc = mux.createPeerConnection({
    iceServers: [],
    iceAdditionalHostAddresses: ['127.0.0.1'],
    codecs: { video: kinds.has('video') ? videoCodecs() : [], audio: kinds.has('audio') ? [opusCodec()] : [] },
    headerExtensions: { video: [], audio: [] },
  });
  // Data goes through the signaling socket, where the hub holds `publishData`: a channel a client opens here (on its
  // publish connection, say) is closed at once, so that it knows that nothing it sends there reaches anyone. After
  // werift has acknowledged its opening: a client whose channel is gone when the acknowledgement comes may throw.
  pc.onDataChannel.subscribe((channel) => {
    setTimeout(() => channel.close(), 0);
  });
  return pc;
}

/** How long gathering host candidates may take (milliseconds, here) before the description is refused. */
const GATHERING_TIMEOUT_MS = 10_000;

/** The connection's local description once every candidate is gathered (the server does not trickle). */
export async function gatheredDescription(pc: PeerConnection): Promise<string> {
  if (pc.iceGatheringState !== 'complete') {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        unSubscribe();
        reject(new Error(`no ICE candidates were gathered within ${GATHERING_TIMEOUT_MS / 1000} s`));
      }, GATHERING_TIMEOUT_MS);
      const { unSubscribe } = pc.iceGatheringStateChange.subscribe((state) => {
        if (state !== 'complete') return;
        clearTimeout(timer);
        unSubscribe();
        resolve();
      });
    });
  }
  const description = pc.localDescription;
  if (!description) throw new Error('the peer connection has no local description');
  return description.sdp;
}
