// A minimal client of /v1/rtc with `--rtc-media sfu`, injected into test pages (plain browser JS): a publisher
// offers its fake camera to the server (`publish`), and every participant answers the server's `subscribe_offer`s on
// one subscribe connection (the first creates it, the next renegotiate it). When the socket closes, so do both.
// Only loopback candidates leave the page: the test never sends traffic to another address. With `join`'s `address`
// (one of this machine's), only that address's candidates, the page's and the server's: a client on another machine.
const gathered = (pc) =>
  new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
  });
let onlyAddress;
const loopbackCandidatesOnly = (sdp) =>
  sdp
    .split('\r\n')
    .filter(
      (line) =>
        !line.startsWith('a=candidate:') ||
        (onlyAddress ? line.includes(` ${onlyAddress} `) : / 127\.\d+\.\d+\.\d+ /.test(line)),
    )
    .join('\r\n');
const serverCandidates = (sdp) => (onlyAddress ? loopbackCandidatesOnly(sdp) : sdp);

window.sfuClient = {
  async join({ baseUrl, token, publish, address }) {
    onlyAddress = address;
    const state = {
      joined: null,
      errors: [],
      serverSdps: [],
      tracks: null,
      subscribeOffers: 0,
      closed: null,
      startedAt: performance.now(),
    };
    window.sfuState = state;
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/v1/rtc?access_token=${encodeURIComponent(token)}`);
    const send = (message) => ws.send(JSON.stringify(message));
    this.send = send;
    ws.onclose = ({ code, reason }) => {
      state.closed = { code, reason, sinceJoinMs: performance.now() - state.startedAt };
      this.publisher?.close();
      this.subscriber?.close();
    };
    ws.onmessage = ({ data }) =>
      this.handle(JSON.parse(data), { state, send, publish }).catch((err) =>
        state.errors.push({ code: 'client', message: String(err) }),
      );
  },
  async handle(message, { state, send, publish }) {
    if (message.type === 'joined') {
      state.joined = message;
      if (!publish) return;
      const camera = await navigator.mediaDevices.getUserMedia({ video: { width: 320, height: 240 }, audio: false });
      const pc = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle' });
      this.publisher = pc;
      for (const track of camera.getTracks()) pc.addTransceiver(track, { direction: 'sendonly' });
      await pc.setLocalDescription(await pc.createOffer());
      await gathered(pc);
      send({ type: 'publish', sdp: loopbackCandidatesOnly(pc.localDescription.sdp) });
    } else if (message.type === 'publish_answer') {
      state.serverSdps.push(message.sdp);
      await this.publisher.setRemoteDescription({ type: 'answer', sdp: serverCandidates(message.sdp) });
    } else if (message.type === 'subscribe_offer') {
      state.serverSdps.push(message.sdp);
      state.tracks = message.tracks;
      state.subscribeOffers++;
      if (!this.subscriber) {
        this.subscriber = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle' });
        // Kept by m-line: a stopped transceiver leaves getTransceivers(), its ended track stays here.
        this.subscriber.ontrack = ({ track, transceiver }) => {
          this.received[transceiver.mid] = track;
        };
      }
      const pc = this.subscriber;
      await pc.setRemoteDescription({ type: 'offer', sdp: serverCandidates(message.sdp) });
      await pc.setLocalDescription(await pc.createAnswer());
      await gathered(pc);
      send({ type: 'subscribe_answer', sdp: loopbackCandidatesOnly(pc.localDescription.sdp) });
    } else if (message.type === 'error') {
      state.errors.push(message);
    }
  },
  /** Publishes the fake microphone too: a second offer of the same publish connection. */
  async addMicrophone() {
    const microphone = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
    this.publisher.addTransceiver(microphone.getAudioTracks()[0], { direction: 'sendonly' });
    await this.publisher.setLocalDescription(await this.publisher.createOffer());
    await gathered(this.publisher);
    this.send({ type: 'publish', sdp: loopbackCandidatesOnly(this.publisher.localDescription.sdp) });
  },
  /** RTP packets received per m-line of the subscribe connection (audio and video). */
  async packetsByMid() {
    const packets = {};
    if (this.subscriber)
      for (const report of (await this.subscriber.getStats()).values())
        if (report.type === 'inbound-rtp') packets[report.mid] = report.packetsReceived ?? 0;
    return packets;
  },
  /** Video frames the subscribe connection has decoded so far, and ms since joining. */
  async framesDecoded() {
    let frames = 0;
    if (this.subscriber)
      for (const report of (await this.subscriber.getStats()).values())
        if (report.type === 'inbound-rtp' && report.kind === 'video') frames += report.framesDecoded ?? 0;
    return { frames, sinceJoinMs: performance.now() - window.sfuState.startedAt };
  },
  /** The subscribe connection's video frames decoded per m-line (`mid`), and ms since joining. */
  async framesByMid() {
    const frames = {};
    if (this.subscriber)
      for (const report of (await this.subscriber.getStats()).values())
        if (report.type === 'inbound-rtp' && report.kind === 'video') frames[report.mid] = report.framesDecoded ?? 0;
    return { frames, sinceJoinMs: performance.now() - window.sfuState.startedAt };
  },
  /** The received tracks' states by m-line: `live`, or `ended` once the server stopped its m-line. */
  received: {},
  receivedTracks() {
    return Object.fromEntries(Object.entries(this.received).map(([mid, track]) => [mid, track.readyState]));
  },
  /** The publish connection's outbound RTP streams of video (one per encoding sent). */
  async videoStreamsSent() {
    let streams = 0;
    if (this.publisher)
      for (const report of (await this.publisher.getStats()).values())
        if (report.type === 'outbound-rtp' && report.kind === 'video') streams++;
    return streams;
  },
};
