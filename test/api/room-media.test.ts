/**
 * A room's media as the server sees it (`rtc.media: 'sfu'`): the dashboard route's tracks, packets, loss and
 * bitrate while a werift publisher sends and a werift subscriber receives, and each connection's totals in the
 * connection log and diagnostics once it ends.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { type RTCPeerConnection, RtpHeader } from 'werift';
import { connected, gathered, newClient, payloadTypeOf } from '../media/werift-client.js';
import { createRoom, expectError, mintRtcToken, projectWithKeys, registerUser } from '../support/factories.js';
import { connectSignaling, type SocketClient } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';
import { eventually } from '../support/wait.js';

const t = useTestServer({ rtc: { media: 'sfu' } });
const clients: RTCPeerConnection[] = [];
afterAll(async () => {
  await Promise.all(clients.map((pc) => pc.close()));
});

/** The publisher's payload: 500 bytes every 10 ms is ≈400 kbps when the timer keeps time. */
const PAYLOAD = Buffer.alloc(500, 7);
/** Every tenth sequence number is never sent: 10 % lost before the server. */
const skipped = (sequenceNumber: number) => sequenceNumber % 10 === 5;

async function join(token: string): Promise<SocketClient> {
  const socket = connectSignaling(t.server.url, token);
  await socket.next('joined');
  return socket;
}

it('shows each participant’s tracks with packets, loss and bitrate, and keeps the totals when they leave', async () => {
  const { owner, project, keys } = await projectWithKeys(t.api);
  const room = await createRoom(t.api, keys.development, 'media');
  const token = owner.token;
  const media = () => t.api.get(`/v1/projects/${project.id}/rooms/${room.id}/media`, { token });
  expect((await media()).body).toEqual({ mode: 'sfu', participants: [] });

  const mint = async (identity: string) => (await mintRtcToken(t.api, keys.development, room.id, { identity })).token;
  const speaker = await join(await mint('speaker'));
  const listener = await join(await mint('listener'));

  // The speaker publishes audio, and sends it as raw RTP with every tenth packet missing.
  const pub = newClient();
  clients.push(pub);
  const audio = pub.addTransceiver('audio', { direction: 'sendonly' });
  await pub.setLocalDescription(await pub.createOffer());
  const offer = await gathered(pub);
  speaker.send({ type: 'publish', sdp: offer });
  await pub.setRemoteDescription({ type: 'answer', sdp: (await speaker.next('publish_answer', 10_000)).sdp });
  await connected(pub);
  let sending = true;
  const sender = (async () => {
    const transport = pub.dtlsTransports[0];
    if (!transport) throw new Error('no DTLS transport');
    const payloadType = payloadTypeOf(offer, 'audio');
    for (let sequenceNumber = 1; sending; sequenceNumber++) {
      if (skipped(sequenceNumber)) continue;
      const header = new RtpHeader({
        ssrc: audio.sender.ssrc,
        payloadType,
        sequenceNumber,
        timestamp: sequenceNumber * 480,
      });
      await transport.sendRtp(PAYLOAD, header);
      await delay(10);
    }
  })();

  // The listener answers its subscribe offer and receives.
  const sub = newClient();
  clients.push(sub);
  let received = 0;
  sub.onTrack.subscribe((track) => track.onReceiveRtp.subscribe(() => received++));
  const subscribeOffer = await listener.next('subscribe_offer', 10_000);
  await sub.setRemoteDescription({ type: 'offer', sdp: subscribeOffer.sdp });
  await sub.setLocalDescription(await sub.createAnswer());
  listener.send({ type: 'subscribe_answer', sdp: await gathered(sub) });
  await connected(sub);

  let connectionIds: Record<string, string> = {};
  try {
    // Two samples of the bitrate's window, and a hundred packets past the server.
    const seen = await eventually(
      media,
      (res) => {
        const tracks = res.body.participants?.flatMap(
          (p: { tracks: { bitrate: number; packets: number }[] }) => p.tracks,
        );
        return (
          tracks?.length === 2 &&
          tracks.every((track: { bitrate: number; packets: number }) => track.bitrate > 0 && track.packets >= 100)
        );
      },
      20_000,
    );
    expect(seen.status).toBe(200);
    const byIdentity = Object.fromEntries(seen.body.participants.map((p: { identity: string }) => [p.identity, p]));
    expect(byIdentity.speaker).toEqual({
      identity: 'speaker',
      connectionId: expect.stringMatching(/^conn_/),
      tracks: [
        {
          direction: 'publish',
          kind: 'audio',
          from: 'speaker',
          packets: expect.any(Number),
          bytes: expect.any(Number),
          packetsLost: expect.any(Number),
          lossPercent: expect.any(Number),
          bitrate: expect.any(Number),
        },
      ],
    });
    connectionIds = { speaker: byIdentity.speaker.connectionId, listener: byIdentity.listener.connectionId };
    const [published] = byIdentity.speaker.tracks;
    expect(published.bytes).toBe(published.packets * PAYLOAD.length);
    // Every tenth sequence number is a gap: 10 % lost, give or take the last ten.
    expect(published.lossPercent).toBeGreaterThanOrEqual(8);
    expect(published.lossPercent).toBeLessThanOrEqual(12);
    // At most what was sent (≈400 kbps at full pace), at least a slow timer's share of it.
    expect(published.bitrate).toBeGreaterThan(40_000);
    expect(published.bitrate).toBeLessThan(600_000);
    expect(byIdentity.listener.tracks).toEqual([
      expect.objectContaining({ direction: 'subscribe', kind: 'audio', from: 'speaker' }),
    ]);
    const [forwarded] = byIdentity.listener.tracks;
    expect(forwarded.packets).toBeGreaterThan(0);
    expect(forwarded.bitrate).toBeGreaterThan(40_000);
    // Sequence numbers are forwarded as they came: the listener reports the speaker's gaps as its own loss.
    expect(forwarded.lossPercent).toBeLessThanOrEqual(12);
    expect(received).toBeGreaterThan(0);
  } finally {
    sending = false;
    await sender;
  }

  // Both leave: each connection's row keeps what its media carried, and diagnostics sum them.
  speaker.send({ type: 'leave' });
  listener.send({ type: 'leave' });
  await Promise.all([speaker.closed, listener.closed]);
  const connection = (id: string) =>
    eventually(
      () => t.api.get(`/v1/projects/${project.id}/connections/${id}`, { token }),
      (res) => res.body.media !== null && res.body.disconnectedAt !== null,
    );
  const spoke = (await connection(connectionIds.speaker ?? '')).body.media;
  const listened = (await connection(connectionIds.listener ?? '')).body.media;
  expect(spoke.bytesIn).toBeGreaterThan(100 * PAYLOAD.length);
  expect(spoke).toMatchObject({ bytesOut: 0, packetsLostOut: 0 });
  expect(spoke.packetsLostIn).toBeGreaterThan(0);
  expect(listened.bytesOut).toBeGreaterThan(0);
  expect(listened).toMatchObject({ bytesIn: 0, packetsLostIn: 0 });
  const diagnostics = (await t.api.get(`/v1/projects/${project.id}/diagnostics`, { token })).body;
  expect(diagnostics.media).toEqual({
    connections: 2,
    bytesIn: spoke.bytesIn,
    bytesOut: listened.bytesOut,
    packetsLostIn: spoke.packetsLostIn,
    packetsLostOut: listened.packetsLostOut,
  });
  expect((await media()).body).toEqual({ mode: 'sfu', participants: [] });
}, 60_000);

it('is read with project:read like the room’s participants; another project’s member is refused', async () => {
  const { project, keys } = await projectWithKeys(t.api);
  const room = await createRoom(t.api, keys.development);
  const stranger = await registerUser(t.api);
  const path = `/v1/projects/${project.id}/rooms/${room.id}`;
  const participants = await t.api.get(`${path}/participants`, { token: stranger.token });
  const media = await t.api.get(`${path}/media`, { token: stranger.token });
  expect(media.status).toBe(participants.status);
  expect(media.body.code).toBe(participants.body.code);
  expectError(
    await t.api.get(`${path}/media?environment=staging`, { token: stranger.token }),
    media.status,
    media.body.code,
  );
});
