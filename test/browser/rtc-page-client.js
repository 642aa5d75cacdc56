// A minimal mesh client for the signaling socket, injected into test pages (plain browser JS).
// Only loopback ICE candidates are forwarded: the test never sends traffic to another address.
window.switchboardRtc = {
  async join({ baseUrl, token, publish }) {
    const state = { joined: null, errors: [], remoteTracks: 0, offersReceived: 0, closed: null };
    const peers = new Map();
    const local = publish ? await navigator.mediaDevices.getUserMedia({ video: true, audio: false }) : null;
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/v1/rtc?access_token=${encodeURIComponent(token)}`);
    const send = (message) => ws.send(JSON.stringify(message));
    const isLoopback = (candidate) => /\s(127\.\d+\.\d+\.\d+|::1)\s/.test(candidate.candidate);

    function peer(identity) {
      if (peers.has(identity)) return peers.get(identity);
      const pc = new RTCPeerConnection({ iceServers: [] });
      pc.onicecandidate = ({ candidate }) => {
        if (candidate && isLoopback(candidate)) send({ type: 'ice', to: identity, candidate: candidate.toJSON() });
      };
      pc.ontrack = ({ track, streams }) => {
        state.remoteTracks++;
        if (track.kind !== 'video') return;
        const video = document.createElement('video');
        video.autoplay = true;
        video.muted = true;
        video.playsInline = true;
        video.dataset.from = identity;
        video.srcObject = streams[0] ?? new MediaStream([track]);
        document.body.append(video);
      };
      peers.set(identity, pc);
      return pc;
    }

    async function offerTo(identity) {
      const pc = peer(identity);
      if (local) for (const track of local.getTracks()) pc.addTrack(track, local);
      else pc.addTransceiver('video', { direction: 'recvonly' });
      await pc.setLocalDescription(await pc.createOffer());
      send({ type: 'offer', to: identity, sdp: pc.localDescription.sdp });
    }

    ws.onmessage = async ({ data }) => {
      const message = JSON.parse(data);
      if (message.type === 'joined') {
        state.joined = message;
        for (const other of message.participants) await offerTo(other.identity);
      } else if (message.type === 'offer') {
        state.offersReceived++;
        const pc = peer(message.from);
        await pc.setRemoteDescription({ type: 'offer', sdp: message.sdp });
        if (local) for (const track of local.getTracks()) pc.addTrack(track, local);
        await pc.setLocalDescription(await pc.createAnswer());
        send({ type: 'answer', to: message.from, sdp: pc.localDescription.sdp });
      } else if (message.type === 'answer') {
        await peer(message.from).setRemoteDescription({ type: 'answer', sdp: message.sdp });
      } else if (message.type === 'ice') {
        if (message.candidate) await peer(message.from).addIceCandidate(message.candidate);
      } else if (message.type === 'error') {
        state.errors.push(message);
      }
    };
    ws.onclose = (event) => {
      state.closed = { code: event.code, reason: event.reason };
    };

    window.rtcState = state;
    // Tries to publish the camera to `identity` (what a viewer token must not be able to do).
    window.rtcPublishTo = async (identity) => {
      const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: false });
      const pc = new RTCPeerConnection({ iceServers: [] });
      for (const track of stream.getTracks()) pc.addTrack(track, stream);
      await pc.setLocalDescription(await pc.createOffer());
      send({ type: 'offer', to: identity, sdp: pc.localDescription.sdp });
    };
  },
};
