import type { SignalingClientFrame, SignalingServerFrame } from '../types.js';
import { KINDS, type Kind, maySend, type PeerStats, received } from './mesh-peer.js';
import type {
  MediaStreamLike,
  MediaStreamTrackLike,
  PeerConnectionConstructor,
  PeerConnectionLike,
} from './web-rtc.js';

type Joined = Extract<SignalingServerFrame, { type: 'joined' }>;
type SubscribeOffer = Extract<SignalingServerFrame, { type: 'subscribe_offer' }>;

export interface SfuSessionHandlers {
  /** A remote participant's track arrived on the subscribe connection. */
  track(identity: string, track: MediaStreamTrackLike, stream: MediaStreamLike | null): void;
  /** The subscribe connection changed state: it carries the media of every other participant. */
  state(state: string): void;
}

/** Resolves once the connection has gathered every ICE candidate: the server takes none after the description. */
function gathered(pc: PeerConnectionLike): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      if (pc.iceGatheringState !== 'complete') return;
      pc.onicegatheringstatechange = null;
      resolve();
    };
    pc.onicegatheringstatechange = done;
    done();
  });
}

/**
 * A participant's media through the server (`joined.media` is `sfu`, docs/signaling.md "Media through the server"):
 * one *publish* connection that this client offers with its local tracks, and one *subscribe* connection that
 * answers the server's offers of the others' tracks, every re-offer on the same connection. The server says whose
 * each m-line is (`tracks` of `subscribe_offer`); a track it takes away ends here, as the browser stops its m-line.
 */
export class SfuSession {
  private publisher: PeerConnectionLike | undefined;
  private subscriber: PeerConnectionLike | undefined;
  /** Whose track each m-line (`mid`) of the subscribe connection carries, from the server's offers. */
  private readonly owners = new Map<string, string>();

  constructor(
    private readonly joined: Joined,
    private readonly PeerConnection: PeerConnectionConstructor,
    private readonly local: MediaStreamLike | undefined,
    private readonly send: (message: SignalingClientFrame) => void,
    private readonly on: SfuSessionHandlers,
  ) {}

  /** The subscribe connection's state (`new` before the server's first offer). */
  get state(): string {
    return this.subscriber?.connectionState ?? 'new';
  }

  /** Offers the local tracks the token allows to the server, once every candidate is gathered; none: nothing sent. */
  async publish(): Promise<void> {
    const kinds = KINDS.filter((kind) => this.track(kind) && maySend(this.joined.self.permissions, kind));
    if (kinds.length === 0 || !this.local) return;
    const pc = this.connection();
    this.publisher = pc;
    for (const kind of kinds) {
      const transceiver = pc.addTransceiver(kind, { direction: 'sendonly' });
      await transceiver.sender.replaceTrack(this.track(kind) ?? null);
      // As in the mesh: the others receive our tracks in one stream.
      transceiver.sender.setStreams(this.local);
    }
    await pc.setLocalDescription();
    await gathered(pc);
    this.send({ type: 'publish', sdp: sdpOf(pc) });
  }

  /** The server's `publish_answer`. */
  async published(sdp: string): Promise<void> {
    await this.publisher?.setRemoteDescription({ type: 'answer', sdp });
  }

  /** The server refused the publish offer (`publish_not_allowed`, `media_failed`): no answer comes for it. */
  unpublished(): void {
    close(this.publisher);
    this.publisher = undefined;
  }

  /** The server's offer of the subscribe connection, the first or a renegotiation: answered on the same connection. */
  async offered({ sdp, tracks }: SubscribeOffer): Promise<void> {
    // Before the remote description: its tracks arrive while it is applied.
    for (const track of tracks) this.owners.set(track.mid, track.participant);
    const pc = this.subscriber ?? this.subscribe();
    await pc.setRemoteDescription({ type: 'offer', sdp });
    await pc.setLocalDescription();
    await gathered(pc);
    this.send({ type: 'subscribe_answer', sdp: sdpOf(pc) });
  }

  /** What arrives from each of `identities` on the subscribe connection. */
  async stats(identities: string[]): Promise<PeerStats[]> {
    const report = await this.subscriber?.getStats();
    return identities.map((identity) => ({
      identity,
      connectionState: this.state,
      ...(report
        ? received(report, (stat) => typeof stat.mid === 'string' && this.owners.get(stat.mid) === identity)
        : { video: null, audio: null }),
    }));
  }

  /**
   * The server's `media_reset`: its media process was started again, and both connections lead to the one that died.
   * Closes them (every received track ends), then publishes again on a new publish connection; the server's next
   * `subscribe_offer` opens a new subscribe connection, and the others' tracks arrive again.
   */
  async reset(): Promise<void> {
    this.close();
    this.owners.clear();
    this.on.state('closed');
    await this.publish();
  }

  /** Closes both connections: every received track ends. */
  close(): void {
    close(this.publisher);
    close(this.subscriber);
    this.publisher = undefined;
    this.subscriber = undefined;
  }

  private subscribe(): PeerConnectionLike {
    const pc = this.connection();
    pc.ontrack = ({ track, streams, transceiver }) => {
      const identity = transceiver.mid === null ? undefined : this.owners.get(transceiver.mid);
      if (identity) this.on.track(identity, track, streams[0] ?? null);
    };
    pc.onconnectionstatechange = () => this.on.state(pc.connectionState);
    this.subscriber = pc;
    return pc;
  }

  private connection(): PeerConnectionLike {
    return new this.PeerConnection({ iceServers: this.joined.iceServers, bundlePolicy: 'max-bundle' });
  }

  private track(kind: Kind): MediaStreamTrackLike | undefined {
    return this.local?.getTracks().find((track) => track.kind === kind);
  }
}

function close(pc: PeerConnectionLike | undefined): void {
  if (!pc) return;
  pc.ontrack = null;
  pc.onconnectionstatechange = null;
  pc.onicegatheringstatechange = null;
  pc.close();
}

function sdpOf(pc: PeerConnectionLike): string {
  const description = pc.localDescription;
  if (!description) throw new Error('No local description after setLocalDescription');
  return description.sdp;
}
