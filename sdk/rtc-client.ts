import type { WebSocketConstructor, WebSocketLike } from './chat-client.js';
import type { SignalingCloseCodes } from './contract.js';
import { Listeners } from './listeners.js';
import { MeshPeer, type PeerStats } from './rtc/mesh-peer.js';
import { SfuSession } from './rtc/sfu-session.js';
import type { MediaStreamLike, PeerConnectionConstructor, TrackOf } from './rtc/web-rtc.js';
import { DEFAULT_BASE_URL, socketBaseOf } from './transport.js';
import type { SignalingClientFrame, SignalingParticipant, SignalingServerFrame } from './types.js';

export type { PeerStats } from './rtc/mesh-peer.js';
export type * from './rtc/web-rtc.js';

export interface RtcJoinOptions<Stream extends MediaStreamLike> {
  /** The server (default `http://127.0.0.1:4700`; `''` is the page's own origin, as the dashboard uses it). */
  baseUrl?: string;
  /** An RTC token for one identity in one room (`rooms.rtcTokens.create`, or the dashboard's playground). */
  token: string;
  /**
   * Your camera and microphone (`navigator.mediaDevices.getUserMedia`), sent to every other participant as far as
   * the token allows; without it the client only receives. The caller owns the tracks: `leave()` does not stop them.
   */
  media?: Stream;
  /** The WebSocket class; the global one by default. */
  WebSocket?: WebSocketConstructor;
  /** The RTCPeerConnection class; the global one by default. */
  RTCPeerConnection?: PeerConnectionConstructor;
}

/** What an `RtcClient` tells its listeners. `Stream` is the browser's `MediaStream` when `media` is one. */
export interface RtcClientEvents<Stream extends MediaStreamLike = MediaStreamLike> {
  participantJoined: SignalingParticipant;
  participantLeft: { identity: string };
  /**
   * A remote participant's track arrived, in the stream they send their tracks in (null if they named none). It ends
   * (`readyState` `ended`) when they leave, or stop sending it through the server.
   */
  track: { identity: string; track: TrackOf<Stream>; stream: Stream | null };
  /**
   * The peer connection to a participant changed state (`connecting`, `connected`, `failed` …); through the server,
   * the one connection that carries every participant's media (each is told).
   */
  peerState: { identity: string; state: string };
  /** The server refused something this client sent (see docs/signaling.md); the connection stays open. */
  error: { code: string; message: string; refused?: string };
  /**
   * Media through the server is being set up again, without the app doing anything: `media_reset`, its media process
   * was started again after it died (the client publishes again on new connections); `media_home_lost`, the server
   * holding the room's media was lost (close code 4503, several servers) and the client joins again with the same
   * token. The others' tracks end meanwhile; `track` events bring them back.
   */
  reconnecting: { cause: RtcReconnectCause };
  /** Set up again after `reconnecting`: joined again (`media_home_lost`) and the local tracks offered again. */
  reconnected: { cause: RtcReconnectCause };
  /** The signaling socket closed: `leave()`, or the server's close code and reason (4410: the room was deleted). */
  closed: { code: number; reason: string };
}

export type RtcReconnectCause = 'media_reset' | 'media_home_lost';

/** The server's close code when the node holding the room's media was lost: joining again picks a new one. */
const MEDIA_HOME_LOST = 4503 satisfies SignalingCloseCodes['mediaHomeLost'];
/** How long after a 4503 the client joins again: the room's other participants are closed meanwhile, on every node. */
const REJOIN_DELAY_MS = 1000;

type Joined = Extract<SignalingServerFrame, { type: 'joined' }>;

interface Admission<Stream extends MediaStreamLike> {
  /** The server admitted the socket: answers the client its frames and its close go to from now on. */
  joined(socket: WebSocketLike, joined: Joined): RtcClient<Stream>;
  /** The socket closed before `joined`. */
  refused(code: number, reason: string): void;
}

/** Thrown by `RtcClient.join` when the server closes the socket before admitting it (bad token, full room …). */
export class RtcJoinError extends Error {
  override readonly name = 'RtcJoinError';
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`The signaling socket closed before joining (${code}${reason ? ` ${reason}` : ''})`);
  }
}

/**
 * A browser's place in a room: joins over the signaling socket (`/v1/rtc`) with an RTC token, sends the local media
 * and hands out the remote tracks as events. The server's `joined` says how media goes: peer to peer with every
 * other participant (`mesh`), or through the server (`sfu`: one connection up, one down, whatever the number of
 * participants). Its peer connections use the ICE servers `joined` lists: none unless the server was given some,
 * host candidates only, nothing leaves the machine or network.
 */
export class RtcClient<Stream extends MediaStreamLike = MediaStreamLike> {
  private readonly peers = new Map<string, MeshPeer>();
  /** Media through the server, when `joined.media` is `sfu`; the mesh's `peers` stay empty then. */
  private sfu: SfuSession | undefined;
  private readonly others = new Map<string, SignalingParticipant>();
  private readonly listeners = new Listeners<RtcClientEvents<Stream>>();
  /** Signaling messages are handled one after the other: each negotiation step awaits the one before. */
  private queue: Promise<void> = Promise.resolve();
  private left = false;

  private constructor(
    private socket: WebSocketLike,
    private joined: Joined,
    private readonly media: Stream | undefined,
    private readonly PeerConnection: PeerConnectionConstructor,
    /** Opens a new signaling socket with the same token: to join again after a 4503. */
    private readonly open: () => WebSocketLike,
  ) {
    this.sfu = this.session(joined);
  }

  private session(joined: Joined): SfuSession | undefined {
    if (joined.media !== 'sfu') return undefined;
    return new SfuSession(joined, this.PeerConnection, this.media, (message) => this.send(message), {
      track: (identity, track, stream) => {
        // The browser's own classes, as the local media's: Stream and its tracks.
        this.emit('track', { identity, track: track as TrackOf<Stream>, stream: stream as Stream | null });
        this.emit('peerState', { identity, state: this.sfu?.state ?? 'new' });
      },
      state: (state) => {
        for (const identity of this.others.keys()) this.emit('peerState', { identity, state });
      },
    });
  }

  /**
   * Joins the token's room; resolves once the server admitted the client and its offers are sent (to the others, or
   * its publish offer to the server).
   */
  static join<Stream extends MediaStreamLike = MediaStreamLike>(
    options: RtcJoinOptions<Stream>,
  ): Promise<RtcClient<Stream>> {
    const globals = globalThis as { WebSocket?: WebSocketConstructor; RTCPeerConnection?: PeerConnectionConstructor };
    const WebSocketImpl = options.WebSocket ?? globals.WebSocket;
    const PeerConnection = options.RTCPeerConnection ?? globals.RTCPeerConnection;
    if (!WebSocketImpl || !PeerConnection)
      return Promise.reject(new Error('RtcClient needs WebSocket and RTCPeerConnection'));
    const base = socketBaseOf(options.baseUrl ?? DEFAULT_BASE_URL);
    const url = `${base}/v1/rtc?access_token=${encodeURIComponent(options.token)}`;
    const open = () => new WebSocketImpl(url);
    return new Promise((resolve, reject) => {
      RtcClient.admit<Stream>(open(), {
        joined: (socket, message) => {
          const client = new RtcClient<Stream>(socket, message, options.media, PeerConnection, open);
          client.run(() => client.start()).then(() => resolve(client), reject);
          return client;
        },
        refused: (code, reason) => reject(new RtcJoinError(code, reason)),
      });
    });
  }

  /** Wires a signaling socket just opened until its `joined`, then to its client. */
  private static admit<Stream extends MediaStreamLike>(
    socket: WebSocketLike,
    { joined, refused }: Admission<Stream>,
  ): void {
    let client: RtcClient<Stream> | undefined;
    socket.onmessage = ({ data }) => {
      const message = JSON.parse(String(data)) as SignalingServerFrame;
      if (client) client.receive(message);
      else if (message.type === 'joined') client = joined(socket, message);
    };
    socket.onclose = ({ code, reason }) => {
      if (client) client.dropped(socket, code, reason);
      else refused(code, reason);
    };
    socket.onerror = () => {};
  }

  /** The room joined. */
  get room(): { id: string; name: string } {
    return this.joined.room;
  }

  /** This client's participant: identity, name, joined time and what the token allows. */
  get self(): SignalingParticipant {
    return this.joined.self;
  }

  /** The other participants now, in order of joining. */
  get participants(): SignalingParticipant[] {
    return [...this.others.values()];
  }

  /** Listens to one event type; answers a function that stops listening. */
  on<K extends keyof RtcClientEvents<Stream>>(
    type: K,
    listener: (event: RtcClientEvents<Stream>[K]) => void,
  ): () => void {
    return this.listeners.on(type, listener);
  }

  /** Mutes (false) or unmutes the local tracks of one kind: the others receive silence or black frames meanwhile. */
  setEnabled(kind: 'audio' | 'video', enabled: boolean): void {
    for (const track of this.media?.getTracks() ?? []) if (track.kind === kind) track.enabled = enabled;
  }

  /** What arrives from each other participant (frames decoded, audio packets), from the peer connections' stats. */
  stats(): Promise<PeerStats[]> {
    if (this.sfu) return this.sfu.stats([...this.others.keys()]);
    return Promise.all([...this.peers.values()].map((peer) => peer.stats()));
  }

  /** Leaves the room: tells the server, closes every peer connection. */
  leave(): void {
    if (this.left) return;
    this.send({ type: 'leave' });
    this.socket.close(1000, 'left');
    this.closed(1000, 'left');
  }

  private async start(): Promise<void> {
    for (const participant of this.joined.participants) {
      this.others.set(participant.identity, participant);
      if (!this.sfu) await this.peer(participant).offer();
    }
    await this.sfu?.publish();
  }

  private receive(message: SignalingServerFrame): void {
    this.run(() => this.handle(message)).catch((err: unknown) => {
      this.emit('error', { code: 'client_negotiation_failed', message: String((err as Error)?.message ?? err) });
    });
  }

  /** Runs `step` after every step before it; a failed step does not stop the ones after it. */
  private run(step: () => Promise<void>): Promise<void> {
    const done = this.queue.then(step);
    this.queue = done.catch(() => {});
    return done;
  }

  private async handle(message: SignalingServerFrame): Promise<void> {
    switch (message.type) {
      case 'participant_joined': {
        // The same identity again replaces its earlier connection: start over with the new one.
        this.drop(message.participant.identity);
        this.others.set(message.participant.identity, message.participant);
        this.emit('participantJoined', message.participant);
        return;
      }
      case 'participant_left':
        this.drop(message.identity);
        this.others.delete(message.identity);
        this.emit('participantLeft', { identity: message.identity });
        return;
      case 'offer': {
        const remote = this.others.get(message.from);
        if (remote) await (this.peers.get(message.from) ?? this.peer(remote)).answer(message.sdp);
        return;
      }
      case 'answer':
        await this.peers.get(message.from)?.accept(message.sdp);
        return;
      case 'ice':
        await this.peers.get(message.from)?.candidate(message.candidate);
        return;
      case 'publish_answer':
        await this.sfu?.published(message.sdp);
        return;
      case 'subscribe_offer':
        await this.sfu?.offered(message);
        return;
      case 'media_reset':
        this.emit('reconnecting', { cause: 'media_reset' });
        await this.sfu?.reset();
        this.emit('reconnected', { cause: 'media_reset' });
        return;
      case 'error':
        // No answer comes for a refused publish offer: its connection is closed (the token decides, not a retry).
        if (message.refused === 'publish') this.sfu?.unpublished();
        this.emit('error', { code: message.code, message: message.message, refused: message.refused });
        return;
      default:
        return;
    }
  }

  private peer(remote: SignalingParticipant): MeshPeer {
    // The server's `--rtc-ice-servers` (STUN, TURN with its credentials); none by default.
    const pc = new this.PeerConnection({ iceServers: this.joined.iceServers });
    const peer = new MeshPeer(remote, this.joined.self, pc, this.media, (message) => this.send(message));
    const identity = remote.identity;
    pc.ontrack = ({ track, streams }) =>
      this.emit('track', {
        identity,
        track: track as TrackOf<Stream>,
        // The browser's own stream class, as the local media's: Stream.
        stream: (streams[0] as Stream | undefined) ?? null,
      });
    pc.onconnectionstatechange = () => this.emit('peerState', { identity, state: pc.connectionState });
    this.peers.set(identity, peer);
    return peer;
  }

  private drop(identity: string): void {
    this.peers.get(identity)?.close();
    this.peers.delete(identity);
  }

  /** A signaling socket closed: the current one, unless it was replaced meanwhile. */
  private dropped(socket: WebSocketLike, code: number, reason: string): void {
    if (socket !== this.socket) return;
    if (code === MEDIA_HOME_LOST && !this.left) void this.rejoin();
    else this.closed(code, reason);
  }

  /**
   * After a 4503: joins again with the same token, once, after a short delay. Refused (an expired token, a full
   * room …): `closed` with the refusal's code and reason.
   */
  private async rejoin(): Promise<void> {
    for (const identity of [...this.peers.keys()]) this.drop(identity);
    this.sfu?.close();
    for (const identity of this.others.keys()) this.emit('peerState', { identity, state: 'closed' });
    this.emit('reconnecting', { cause: 'media_home_lost' });
    await new Promise((resolve) => setTimeout(resolve, REJOIN_DELAY_MS));
    if (this.left) return;
    // Current at once: `leave()` meanwhile closes it.
    this.socket = this.open();
    RtcClient.admit<Stream>(this.socket, {
      joined: (_socket, joined) => {
        this.run(() => this.rejoined(joined)).catch((err: unknown) => {
          this.emit('error', { code: 'client_negotiation_failed', message: String((err as Error)?.message ?? err) });
        });
        return this;
      },
      refused: (code, reason) => this.closed(code, reason),
    });
  }

  /** Admitted again: the participants as they are now, and the local tracks offered again. */
  private async rejoined(joined: Joined): Promise<void> {
    this.joined = joined;
    const present = new Set(joined.participants.map(({ identity }) => identity));
    for (const identity of [...this.others.keys()]) {
      if (present.has(identity)) continue;
      this.others.delete(identity);
      this.emit('participantLeft', { identity });
    }
    for (const participant of joined.participants)
      if (!this.others.has(participant.identity)) this.emit('participantJoined', participant);
    this.others.clear();
    this.sfu = this.session(joined);
    await this.start();
    this.emit('reconnected', { cause: 'media_home_lost' });
  }

  private closed(code: number, reason: string): void {
    if (this.left) return;
    this.left = true;
    for (const identity of [...this.peers.keys()]) this.drop(identity);
    this.sfu?.close();
    this.emit('closed', { code, reason });
  }

  private send(message: SignalingClientFrame): void {
    if (this.socket.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  private emit<K extends keyof RtcClientEvents<Stream>>(type: K, event: RtcClientEvents<Stream>[K]): void {
    this.listeners.emit(type, event);
  }
}
