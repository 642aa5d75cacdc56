// An app's call page on the SDK's browser build: RtcClient as an app uses it, whatever media the server runs
// (plain browser JS, loaded by test/browser/sfu-rtc-client.test.ts). The page keeps what the client told it.
import { RtcClient } from './sdk.js';

window.sdkCall = {
  /** Joins with the fake camera and microphone as `media` when `camera`, as a receiver only otherwise. */
  async join({ baseUrl, token, camera }) {
    const media = camera
      ? await navigator.mediaDevices.getUserMedia({ video: { width: 320, height: 240 }, audio: true })
      : undefined;
    const call = await RtcClient.join({ baseUrl, token, media });
    this.call = call;
    this.errors = [];
    this.received = [];
    this.states = {};
    call.on('track', ({ identity, track, stream }) => this.received.push({ identity, track, stream }));
    call.on('peerState', ({ identity, state }) => {
      this.states[identity] = state;
    });
    call.on('error', (error) => this.errors.push(error));
    this.reconnects = [];
    call.on('reconnecting', ({ cause }) => this.reconnects.push(`reconnecting ${cause}`));
    call.on('reconnected', ({ cause }) => this.reconnects.push(`reconnected ${cause}`));
    this.closed = null;
    call.on('closed', ({ code }) => {
      this.closed = code;
    });
  },
  /** Each track received: whose, its kind, `live` or `ended`, and the id of the stream it came in. */
  tracks() {
    return this.received.map(({ identity, track, stream }) => ({
      identity,
      kind: track.kind,
      readyState: track.readyState,
      stream: stream?.id ?? null,
    }));
  },
  /** Video frames decoded and audio packets received per remote participant, from the client's stats(). */
  async figures() {
    const figures = {};
    for (const { identity, video, audio } of await this.call.stats())
      figures[identity] = { frames: video?.framesDecoded ?? 0, audioPackets: audio?.packetsReceived ?? 0 };
    return figures;
  },
  leave() {
    this.call.leave();
  },
};
