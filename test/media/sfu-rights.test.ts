/**
 * Rights held where the media is, through `/v1/rtc` with `rtc.media: 'sfu'` (the media process forked as `serve`
 * does): werift clients in this process, which send RTP whatever they negotiated, and count what reaches them.
 */

import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RTCPeerConnection } from 'werift';
import { createLiveStream, createRoom, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { connectSignaling, type SocketClient } from '../support/socket-client.js';
import { eventually } from '../support/wait.js';
import { publishAudio, subscribeCounting } from './sfu-participant.js';

let server: TestServer;
const clients: RTCPeerConnection[] = [];
const sockets: SocketClient[] = [];
beforeAll(async () => {
  server = await startTestServer({ rtc: { media: 'sfu' } });
});
afterAll(async () => {
  for (const socket of sockets) socket.socket.terminate();
  await Promise.all(clients.map((pc) => pc.close()));
  await server?.dispose();
});

async function join(token: string): Promise<SocketClient> {
  const socket = connectSignaling(server.url, token);
  sockets.push(socket);
  await socket.next('joined');
  return socket;
}

/** Publishes audio and video (sfu-participant.ts); the connection is closed after the file. */
async function publish(socket: SocketClient) {
  const { pc, answer, send } = await publishAudio(socket, 'A');
  clients.push(pc);
  return { answer, sendAudio: send };
}

/** Answers the socket's subscribe offer with a client that counts what it receives, closed after the file. */
async function subscribe(socket: SocketClient) {
  const { pc, received, tracks } = await subscribeCounting(socket);
  clients.push(pc);
  return { received, tracks };
}

it('answers a token without publishVideo with its audio only, and offers nothing to a token without subscribe', async () => {
  const api = client(server.url);
  const { keys } = await projectWithKeys(api);
  const room = await createRoom(api, keys.development, 'sfu-rights');
  const mint = async (identity: string, rights: object) =>
    (await mintRtcToken(api, keys.development, room.id, { identity, ...rights })).token;
  const deaf = await join(await mint('deaf', { subscribe: false }));
  const listener = await join(await mint('listener', {}));
  const speaker = await join(await mint('speaker', { publishVideo: false }));

  // Audio and video offered: refused no more, answered with the video m-line rejected.
  const { answer } = await publish(speaker);
  expect(answer).toMatch(/^m=audio [1-9]/m);
  expect(answer).toMatch(/^m=video 0 /m);
  const { tracks } = await subscribe(listener);
  expect(tracks).toEqual([{ mid: expect.any(String), participant: 'speaker', kind: 'audio' }]);
  // The token without subscribe got no offer (the ping's pong comes after anything sent before it).
  deaf.send({ type: 'ping' });
  await deaf.next('pong');
  expect(deaf.received.map((m) => m.type)).not.toContain('subscribe_offer');
}, 30_000);

it('stops forwarding a removed host’s media at once, though its client holds the closing handshake', async () => {
  const api = client(server.url);
  const { keys } = await projectWithKeys(api);
  const key = keys.development;
  const stream = await createLiveStream(api, key, 'SFU rights');
  expect((await api.post(`/v1/live-streams/${stream.id}/start`, { token: key })).status).toBe(200);
  const credential = async (path: string, body: object) =>
    ((await api.post(`/v1/live-streams/${stream.id}/${path}`, { token: key, body })).body as { rtc: { token: string } })
      .rtc.token;
  const host = await join(await credential('hosts', { identity: 'host', role: 'HOST' }));
  const viewer = await join(await credential('viewer-tokens', { identity: 'viewer' }));
  const { sendAudio } = await publish(host);
  const { received } = await subscribe(viewer);

  // The host sends all along (every 10 ms); the viewer receives it.
  let sending = true;
  const sender = (async () => {
    while (sending) {
      await sendAudio();
      await delay(10);
    }
  })();
  try {
    await eventually(
      async () => received.rtp.A ?? 0,
      (count) => count >= 10,
      10_000,
    );
    // The host's client no longer reads its socket: the server's close frame stays unanswered.
    (host.socket as unknown as { _socket: Socket })._socket.pause();
    expect((await api.delete(`/v1/live-streams/${stream.id}/hosts/host`, { token: key })).status).toBe(204);
    await delay(500);
    const settled = received.rtp.A ?? 0;
    await delay(500);
    expect(received.rtp.A ?? 0).toBe(settled);
  } finally {
    sending = false;
    await sender;
  }
}, 30_000);
