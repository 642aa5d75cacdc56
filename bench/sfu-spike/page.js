// The spike's page code (bench/sfu-spike/run.ts serves it to Chromium): a publisher of the fake camera and
// microphone, and a late-joining subscriber that times its first decoded frame. Plain JS, as it runs in the page.
const gathered = (pc) =>
  new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve();
  });
const connected = (pc) =>
  new Promise((resolve) => {
    if (pc.connectionState === 'connected') resolve();
    pc.onconnectionstatechange = () => pc.connectionState === 'connected' && resolve();
  });

window.spike = {
  async publish() {
    const stream = await navigator.mediaDevices.getUserMedia({
      video: { width: 640, height: 480, frameRate: 30 },
      audio: true,
    });
    const pc = new RTCPeerConnection({ iceServers: [] });
    this.publisher = pc;
    for (const track of stream.getTracks())
      pc.addTransceiver(track, {
        direction: 'sendonly',
        sendEncodings: track.kind === 'video' ? [{ maxBitrate: 1_000_000 }] : undefined,
      });
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc);
    return pc.localDescription.sdp;
  },
  async published(answer) {
    await this.publisher.setRemoteDescription({ type: 'answer', sdp: answer });
    await connected(this.publisher);
  },
  async publisherStats() {
    const stats = await this.publisher.getStats();
    for (const report of stats.values())
      if (report.type === 'outbound-rtp' && report.kind === 'video')
        return {
          bytesSent: report.bytesSent,
          framesEncoded: report.framesEncoded,
          width: report.frameWidth,
          height: report.frameHeight,
          limitation: report.qualityLimitationReason,
        };
    return { bytesSent: 0, framesEncoded: 0, width: 0, height: 0, limitation: '' };
  },
  async subscribe(offer) {
    const pc = new RTCPeerConnection({ iceServers: [] });
    this.subscriber = pc;
    this.t0 = performance.now();
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered(pc);
    return pc.localDescription.sdp;
  },
  /** A later offer of the same subscriber connection (the server added a track). */
  async renegotiate(offer) {
    const pc = this.subscriber;
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    await pc.setLocalDescription(await pc.createAnswer());
    return pc.localDescription.sdp;
  },
  async firstFrame() {
    const pc = this.subscriber;
    let connectedMs = Number.NaN;
    for (;;) {
      if (Number.isNaN(connectedMs) && pc.connectionState === 'connected') connectedMs = performance.now() - this.t0;
      const stats = await pc.getStats();
      for (const report of stats.values())
        if (report.type === 'inbound-rtp' && report.kind === 'video' && report.framesDecoded > 0)
          return { connectedMs, firstFrameMs: performance.now() - this.t0 };
      if (performance.now() - this.t0 > 15_000) return { connectedMs, firstFrameMs: Number.NaN };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  },
  unsubscribe() {
    this.subscriber.close();
  },
};
