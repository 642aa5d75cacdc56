/**
 * A room's media as the server sees it (`rtc.media: 'sfu'`): the dashboard route's tracks, packets, loss and
 * bitrate while a werift publisher sends and a werift subscriber receives, and each connection's totals in the
 * connection log and diagnostics once it ends.
 */
import { afterAll, expect, it } from 'vitest';
import type { RTCPeerConnection } from 'werift';
import { PAYLOAD, publishLossyAudio, subscribe } from '../media/media-traffic.js';
import { createRoom, expectError, mintRtcToken, projectWithKeys, registerUser } from '../support/factories.js';
import { connectSignaling, type SocketClient } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';
import { eventually } from '../support/wait.js';

const t = useTestServer({ rtc: { media: 'sfu' } });
const clients: RTCPeerConnection[] = [];
afterAll(async () => {
  await Promise.all(clients.map((pc) => pc.close()));
});

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

  const publisher = await publishLossyAudio(speaker, clients);
  const subscriber = await subscribe(listener, clients);

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
    expect(subscriber.received()).toBeGreaterThan(0);
  } finally {
    await publisher.stop();
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
