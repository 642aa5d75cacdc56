/**
 * The SFU's network settings and its data rights, through `/v1/rtc` with the media process forked as `serve` does:
 * the address it announces (`rtc.announceAddresses`), the ICE servers its clients get (`rtc.iceServers`), and data
 * from a participant without `publishData` reaching no one, whichever way it is sent.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RTCPeerConnection } from 'werift';
import type { IceServer } from '../../server/rtc/ice-servers.js';
import { createRoom, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { connectSignaling, type SocketClient } from '../support/socket-client.js';
import { eventually } from '../support/wait.js';
import { subscribeCounting } from './sfu-participant.js';
import { connected, gathered, newClient } from './werift-client.js';

/** Hosts of the reserved example domain and documentation addresses: nothing is ever sent to them. */
const ICE_SERVERS: IceServer[] = [
  { urls: ['stun:stun.example.com:3478'] },
  { urls: ['turn:192.0.2.10:3478?transport=udp'], username: 'switchboard', credential: 'turn-secret' },
];

let server: TestServer;
const clients: RTCPeerConnection[] = [];
const sockets: SocketClient[] = [];
beforeAll(async () => {
  // Loopback only: the server's interfaces (a LAN address, a container's) are not announced.
  server = await startTestServer({
    rtc: { media: 'sfu', announceAddresses: ['127.0.0.1'], iceServers: ICE_SERVERS },
  });
});
afterAll(async () => {
  for (const socket of sockets) socket.socket.terminate();
  await Promise.all(clients.map((pc) => pc.close()));
  await server?.dispose();
});

interface Joined {
  socket: SocketClient;
  joined: { iceServers: IceServer[] };
}

async function roomWith(...participants: [identity: string, rights: object][]): Promise<Joined[]> {
  const api = client(server.url);
  const { keys } = await projectWithKeys(api);
  const room = await createRoom(api, keys.development, `sfu-network-${participants.length}`);
  const joined: Joined[] = [];
  for (const [identity, rights] of participants) {
    const { token } = await mintRtcToken(api, keys.development, room.id, { identity, ...rights });
    const socket = connectSignaling(server.url, token);
    sockets.push(socket);
    joined.push({ socket, joined: await socket.next('joined') });
  }
  return joined;
}

/** Publishes audio with a data channel of its own on the publish connection; answers the answer and the channel. */
async function publishWithChannel(socket: SocketClient) {
  const pc = newClient();
  clients.push(pc);
  pc.addTransceiver('audio', { direction: 'sendonly' });
  const channel = pc.createDataChannel('mine');
  await pc.setLocalDescription(await pc.createOffer());
  socket.send({ type: 'publish', sdp: await gathered(pc) });
  const { sdp: answer } = await socket.next('publish_answer', 10_000);
  await pc.setRemoteDescription({ type: 'answer', sdp: answer });
  await connected(pc);
  return { answer, channel };
}

async function subscribe(socket: SocketClient) {
  const { pc, received, offer } = await subscribeCounting(socket);
  clients.push(pc);
  return { offer, received };
}

const candidatesOf = (sdp: string) => sdp.split('\r\n').filter((line) => line.startsWith('a=candidate:'));

it('announces the configured address only, connects there, and gives clients the configured ICE servers', async () => {
  const [speaker, listener] = (await roomWith(['speaker', {}], ['listener', {}])) as [Joined, Joined];
  // Every participant learns the ICE servers when it joins, TURN with its credentials.
  expect(speaker.joined.iceServers).toEqual(ICE_SERVERS);
  expect(listener.joined.iceServers).toEqual(ICE_SERVERS);

  const { answer } = await publishWithChannel(speaker.socket);
  const { offer } = await subscribe(listener.socket);
  // Both of the server's descriptions: host candidates at the announced address, on the one media port, and
  // no other address (by default the interfaces' are announced too); the clients connected there.
  for (const description of [answer, offer]) {
    const candidates = candidatesOf(description);
    expect(candidates.length).toBeGreaterThan(0);
    for (const candidate of candidates) expect(candidate).toMatch(/ udp \d+ 127\.0\.0\.1 \d+ typ host/);
  }
  const ports = new Set([answer, offer].flatMap(candidatesOf).map((candidate) => candidate.split(' ')[5]));
  expect(ports.size).toBe(1);
}, 30_000);

it('lets no data of a participant without publishData reach anyone: socket frames, its own data channels', async () => {
  const [muted, talker, audience] = (await roomWith(
    ['muted', { publishData: false }],
    ['talker', {}],
    ['audience', { publish: false, publishData: false }],
  )) as [Joined, Joined, Joined];
  // On the socket: refused, and nobody gets it; the talker's data reaches both others.
  muted.socket.send({ type: 'data', payload: 'from muted' });
  expect(await muted.socket.next('error')).toMatchObject({ code: 'publish_data_not_allowed', refused: 'data' });
  talker.socket.send({ type: 'data', payload: 'from talker' });
  expect(await muted.socket.next('data')).toEqual({ type: 'data', from: 'talker', payload: 'from talker' });
  expect(await audience.socket.next('data')).toEqual({ type: 'data', from: 'talker', payload: 'from talker' });

  // On a data channel of its publish connection: the server closes it (data goes by the socket), for a participant
  // with publishData too; nothing sent on it while open reached anyone.
  for (const publisher of [muted, talker]) {
    const { channel } = await publishWithChannel(publisher.socket);
    if (channel.readyState === 'open') channel.send('sent on the publish connection');
    await eventually(
      async () => channel.readyState,
      (state) => state === 'closed',
      10_000,
    );
  }
  // The audience's subscribe connection (its `switchboard` channel among what it counts) got no data either.
  const { received } = await subscribe(audience.socket);
  await delay(300);
  expect(received.data).toBe(0);
  for (const { socket } of [muted, talker, audience]) {
    socket.send({ type: 'ping' });
    await socket.next('pong');
  }
  const dataFrames = [muted, talker, audience].flatMap(({ socket }) =>
    socket.received.filter((frame) => frame.type === 'data'),
  );
  expect(dataFrames.map(({ from }) => from)).toEqual(['talker', 'talker']);
}, 30_000);

it('refuses to start with an address it cannot announce or an ICE server no client could use', async () => {
  await expect(startTestServer({ rtc: { media: 'sfu', announceAddresses: ['media.example.com'] } })).rejects.toThrow(
    'rtc.announceAddresses: "media.example.com" is not an IPv4 address',
  );
  await expect(
    startTestServer({ rtc: { media: 'sfu', iceServers: [{ urls: ['turn:turn.example.com'] }] } }),
  ).rejects.toThrow('rtc.iceServers: turn:turn.example.com needs a username and a credential');
  await expect(startTestServer({ rtc: { iceServers: [{ urls: ['http://stun.example.com'] }] } })).rejects.toThrow(
    'rtc.iceServers: "http://stun.example.com" is not a stun:, turn: or turns: URL',
  );
});
