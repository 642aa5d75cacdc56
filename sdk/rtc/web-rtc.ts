/**
 * The parts of the browser's WebRTC API that `RtcClient` uses, as structural types: the SDK compiles without the
 * DOM library (it loads in Node too), and a browser's MediaStream, MediaStreamTrack and RTCPeerConnection fit them.
 */
export interface MediaStreamTrackLike {
  readonly id: string;
  /** `audio` or `video`. */
  readonly kind: string;
  /** False sends silence (audio) or black frames (video): muting without renegotiating. */
  enabled: boolean;
}

export interface MediaStreamLike {
  readonly id: string;
  getTracks(): MediaStreamTrackLike[];
}

/** The track type of a stream type: `MediaStreamTrack` for `MediaStream`. */
export type TrackOf<Stream extends MediaStreamLike> = ReturnType<Stream['getTracks']>[number];

export interface IceCandidateInit {
  candidate?: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
  usernameFragment?: string | null;
}

export interface IceCandidateLike {
  readonly candidate: string;
  readonly sdpMid: string | null;
  readonly sdpMLineIndex: number | null;
  readonly usernameFragment: string | null;
  /** `host`, `srflx`, `prflx` or `relay`. */
  readonly type: string | null;
}

export interface TransceiverLike {
  direction: string;
  /** The m-line it is negotiated on, once it is (null before). */
  readonly mid: string | null;
  readonly receiver: { readonly track: MediaStreamTrackLike };
  readonly sender: {
    replaceTrack(track: MediaStreamTrackLike | null): Promise<void>;
    setStreams(...streams: MediaStreamLike[]): void;
  };
}

export interface StatsReportLike {
  forEach(callback: (stat: Record<string, unknown>) => void): void;
}

export interface PeerConnectionLike {
  onicecandidate: ((event: { candidate: IceCandidateLike | null }) => void) | null;
  ontrack:
    | ((event: {
        track: MediaStreamTrackLike;
        streams: readonly MediaStreamLike[];
        transceiver: { readonly mid: string | null };
      }) => void)
    | null;
  onconnectionstatechange: (() => void) | null;
  onicegatheringstatechange: (() => void) | null;
  /** `new`, `connecting`, `connected`, `disconnected`, `failed` or `closed`. */
  readonly connectionState: string;
  /** `new`, `gathering` or `complete`: complete once every ICE candidate is in the local description. */
  readonly iceGatheringState: string;
  readonly localDescription: { readonly sdp: string } | null;
  addTransceiver(kind: string, init?: { direction?: string }): TransceiverLike;
  getTransceivers(): TransceiverLike[];
  /** Without a description: the offer or answer the connection's state calls for. */
  setLocalDescription(): Promise<void>;
  setRemoteDescription(description: { type: 'offer' | 'answer'; sdp: string }): Promise<void>;
  addIceCandidate(candidate: IceCandidateInit): Promise<void>;
  getStats(): Promise<StatsReportLike>;
  close(): void;
}

export type PeerConnectionConstructor = new (configuration: {
  iceServers: { urls: string | string[]; username?: string; credential?: string }[];
  /** `max-bundle` for the connections to the server's media process (all media on one transport). */
  bundlePolicy?: 'max-bundle';
}) => PeerConnectionLike;
