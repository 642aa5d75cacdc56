import type { SignalingClientFrame, SignalingParticipant } from '../types.js';
import type { MediaStreamLike, MediaStreamTrackLike, PeerConnectionLike, StatsReportLike } from './web-rtc.js';

export type Kind = 'audio' | 'video';
export const KINDS: readonly Kind[] = ['audio', 'video'];

/** What one remote participant's connection shows: whether it is up, and what arrives from them. */
export interface PeerStats {
  identity: string;
  /** The peer connection's state: `new`, `connecting`, `connected`, `disconnected`, `failed` or `closed`. */
  connectionState: string;
  /** Their video as received, or null when none arrives. `framesDecoded` growing is video flowing. */
  video: {
    framesDecoded: number;
    framesPerSecond: number | null;
    frameWidth: number | null;
    frameHeight: number | null;
    bytesReceived: number;
  } | null;
  /** Their audio as received, or null when none arrives. */
  audio: { packetsReceived: number; bytesReceived: number; audioLevel: number | null } | null;
}

/** The signaling server's rule (server/rtc/permissions.ts): `publish` is the master switch for media. */
export const maySend = (p: SignalingParticipant['permissions'], kind: Kind) =>
  p.publish && (kind === 'audio' ? p.publishAudio : p.publishVideo);

/**
 * The peer connection to one other participant of a mesh room, and its negotiation over the signaling socket.
 * Each side sends a kind of media only when its token allows it and the other may subscribe, so the server never
 * has an offer or answer to refuse; it receives a kind when it may subscribe and the other may send it.
 */
export class MeshPeer {
  constructor(
    readonly remote: SignalingParticipant,
    private readonly self: SignalingParticipant,
    private readonly pc: PeerConnectionLike,
    private readonly local: MediaStreamLike | undefined,
    private readonly send: (message: SignalingClientFrame) => void,
  ) {
    // Host candidates only: peers on one machine or network reach each other without STUN or TURN.
    pc.onicecandidate = ({ candidate: c }) => {
      if (c?.type !== 'host') return;
      const candidate = {
        candidate: c.candidate,
        sdpMid: c.sdpMid,
        sdpMLineIndex: c.sdpMLineIndex,
        usernameFragment: c.usernameFragment,
      };
      send({ type: 'ice', to: remote.identity, candidate });
    };
  }

  get connection(): PeerConnectionLike {
    return this.pc;
  }

  /** We joined after them: we offer. */
  async offer(): Promise<void> {
    let media = false;
    for (const kind of KINDS) {
      const direction = this.direction(kind);
      if (direction === 'inactive') continue;
      media = true;
      await this.attach(this.pc.addTransceiver(kind, { direction }), kind);
    }
    if (!media) return; // Nothing to exchange either way (e.g. neither may publish).
    await this.pc.setLocalDescription();
    this.send({ type: 'offer', to: this.remote.identity, sdp: this.sdp() });
  }

  /** They joined after us and offered: we answer, with our own media on the transceivers their offer made. */
  async answer(sdp: string): Promise<void> {
    await this.pc.setRemoteDescription({ type: 'offer', sdp });
    for (const transceiver of this.pc.getTransceivers()) {
      const kind = transceiver.receiver.track.kind as Kind;
      transceiver.direction = this.direction(kind);
      await this.attach(transceiver, kind);
    }
    await this.pc.setLocalDescription();
    this.send({ type: 'answer', to: this.remote.identity, sdp: this.sdp() });
  }

  accept(sdp: string): Promise<void> {
    return this.pc.setRemoteDescription({ type: 'answer', sdp });
  }

  async candidate(candidate: unknown): Promise<void> {
    if (candidate) await this.pc.addIceCandidate(candidate as Parameters<PeerConnectionLike['addIceCandidate']>[0]);
  }

  async stats(): Promise<PeerStats> {
    return {
      identity: this.remote.identity,
      connectionState: this.pc.connectionState,
      ...received(await this.pc.getStats()),
    };
  }

  close(): void {
    this.pc.onicecandidate = null;
    this.pc.ontrack = null;
    this.pc.onconnectionstatechange = null;
    this.pc.close();
  }

  private direction(kind: Kind): 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive' {
    const sends =
      this.track(kind) !== undefined && maySend(this.self.permissions, kind) && this.remote.permissions.subscribe;
    const receives = this.self.permissions.subscribe && maySend(this.remote.permissions, kind);
    if (sends) return receives ? 'sendrecv' : 'sendonly';
    return receives ? 'recvonly' : 'inactive';
  }

  private async attach(transceiver: ReturnType<PeerConnectionLike['addTransceiver']>, kind: Kind): Promise<void> {
    const track = this.track(kind);
    if (!track || !this.local || !transceiver.direction.startsWith('send')) return;
    await transceiver.sender.replaceTrack(track);
    // The remote side then receives our tracks in one stream, as the `track` event's stream.
    transceiver.sender.setStreams(this.local);
  }

  private track(kind: Kind): MediaStreamTrackLike | undefined {
    return this.local?.getTracks().find((track) => track.kind === kind);
  }

  private sdp(): string {
    const description = this.pc.localDescription;
    if (!description) throw new Error('No local description after setLocalDescription');
    return description.sdp;
  }
}

const count = (value: unknown) => (typeof value === 'number' ? value : 0);
const maybe = (value: unknown) => (typeof value === 'number' ? value : null);

/**
 * The inbound media of a connection's statistics (the `inbound-rtp` reports, one per kind received); `from` keeps
 * those of one sender when the connection carries several (the SFU's subscribe connection).
 */
export function received(
  report: StatsReportLike,
  from: (stat: Record<string, unknown>) => boolean = () => true,
): Pick<PeerStats, 'video' | 'audio'> {
  let video: PeerStats['video'] = null;
  let audio: PeerStats['audio'] = null;
  report.forEach((stat) => {
    if (stat.type !== 'inbound-rtp' || !from(stat)) return;
    if (stat.kind === 'video') {
      video = {
        framesDecoded: count(stat.framesDecoded),
        framesPerSecond: maybe(stat.framesPerSecond),
        frameWidth: maybe(stat.frameWidth),
        frameHeight: maybe(stat.frameHeight),
        bytesReceived: count(stat.bytesReceived),
      };
    } else if (stat.kind === 'audio') {
      audio = {
        packetsReceived: count(stat.packetsReceived),
        bytesReceived: count(stat.bytesReceived),
        audioLevel: maybe(stat.audioLevel),
      };
    }
  });
  return { video, audio };
}
