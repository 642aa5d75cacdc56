/**
 * The media process's single UDP port (server/media/udp-mux.ts) with werift peer connections in this process: the
 * server's side made by the mux, the clients' plain werift (each its own socket). The mux reaches into werift
 * (udp-mux-werift-hook.ts): a werift upgrade must pass this file.
 */

import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { classes, Message, methods, parseMessage, type RTCDataChannel, RTCPeerConnection } from 'werift';
import { createUdpMux, type UdpMux } from '../../server/media/udp-mux.js';
import { werift } from '../../server/media/werift.js';

/** The build of werift the mux hooks (the media process's: server/media/werift.ts); the clients use the other. */
const { UdpTransport } = werift;

const HOST = '127.0.0.1';
const RMEM_MAX = '/proc/sys/net/core/rmem_max';
/** How long a loopback datagram may take to be handled on a loaded machine: a bound on waiting, not a measurement. */
const ARRIVAL = { timeout: 10_000 };

/** A client as a browser would be: a socket of its own, nothing but loopback, no STUN server. */
function newClient(): RTCPeerConnection {
  return new RTCPeerConnection({
    iceServers: [],
    iceUseIpv6: false,
    iceInterfaceAddresses: { udp4: HOST },
    iceAdditionalHostAddresses: [HOST],
  });
}

/** The description once every candidate is in it (no trickle, as the media process answers). */
async function gathered(pc: RTCPeerConnection): Promise<string> {
  if (pc.iceGatheringState !== 'complete') {
    await new Promise<void>((resolve) => {
      const { unSubscribe } = pc.iceGatheringStateChange.subscribe((state) => {
        if (state !== 'complete') return;
        unSubscribe();
        resolve();
      });
    });
  }
  const sdp = pc.localDescription?.sdp;
  if (!sdp) throw new Error('no local description');
  return sdp;
}

/** The ports of a description's candidates. */
function candidatePorts(sdp: string): number[] {
  return [...sdp.matchAll(/^a=candidate:\S+ \d+ udp \d+ \S+ (\d+) typ/gm)].map((match) => Number(match[1]));
}

function iceCredentials(sdp: string): { ufrag: string; password: string } {
  const ufrag = /^a=ice-ufrag:(\S+)/m.exec(sdp)?.[1];
  const password = /^a=ice-pwd:(\S+)/m.exec(sdp)?.[1];
  if (!ufrag || !password) throw new Error('no ICE credentials in the description');
  return { ufrag, password };
}

interface Connected {
  client: RTCPeerConnection;
  server: RTCPeerConnection;
  channel: RTCDataChannel;
  serverSdp: string;
  clientSdp: string;
}

/** A client offers a data channel; the server's side, on the mux, answers and echoes every message. */
async function connect(mux: UdpMux): Promise<Connected> {
  const client = newClient();
  const channel = client.createDataChannel('echo');
  await client.setLocalDescription(await client.createOffer());
  const server = mux.createPeerConnection();
  server.onDataChannel.subscribe((incoming) => incoming.onMessage.subscribe((message) => incoming.send(message)));
  const clientSdp = await gathered(client);
  await server.setRemoteDescription({ type: 'offer', sdp: clientSdp });
  await server.setLocalDescription(await server.createAnswer());
  const serverSdp = await gathered(server);
  await client.setRemoteDescription({ type: 'answer', sdp: serverSdp });
  if (channel.readyState !== 'open') await channel.stateChanged.watch((state) => state === 'open');
  return { client, server, channel, serverSdp, clientSdp };
}

async function echo(channel: RTCDataChannel, text: string): Promise<string> {
  const reply = channel.onMessage.asPromise();
  channel.send(text);
  const [message] = await reply;
  return message.toString();
}

/** A server connection that offered (a data channel) and gathered; nobody answers it. */
async function offering(mux: UdpMux): Promise<{ server: RTCPeerConnection; ufrag: string; password: string }> {
  const server = mux.createPeerConnection();
  server.createDataChannel('unused');
  await server.setLocalDescription(await server.createOffer());
  return { server, ...iceCredentials(await gathered(server)) };
}

/** A bare UDP socket on loopback that keeps what it receives. */
async function rawSocket(): Promise<{ socket: Socket; received: Buffer[] }> {
  const socket = createSocket('udp4');
  const received: Buffer[] = [];
  socket.on('message', (data) => received.push(data));
  socket.bind(0, HOST);
  await once(socket, 'listening');
  return { socket, received };
}

/** A binding request as an ICE agent sends it to `ufrag`, signed with `password`. */
function bindingRequest(ufrag: string, password: string): Buffer {
  return new Message(methods.BINDING, classes.REQUEST)
    .setAttribute('USERNAME', `${ufrag}:raw0`)
    .setAttribute('PRIORITY', 1)
    .addMessageIntegrity(Buffer.from(password, 'utf8'))
    .addFingerprint().bytes;
}

function sendTo(socket: Socket, port: number, data: Buffer): void {
  socket.send(data, port, HOST);
}

async function dropsOf(mux: UdpMux, sending: () => void, count: number): Promise<void> {
  const before = mux.stats().dropped;
  sending();
  await vi.waitFor(() => expect(mux.stats().dropped - before).toBe(count), ARRIVAL);
}

describe('the UDP mux', () => {
  const werifts = UdpTransport.init;
  let mux: UdpMux;
  beforeAll(async () => {
    mux = await createUdpMux({ port: 0, host: HOST });
  });
  afterAll(async () => {
    await mux?.close();
    // The last mux closed gives werift its own function back.
    expect(UdpTransport.init).toBe(werifts);
  });

  it('carries ten peer connections on its one port: each connects and echoes its data channel', async () => {
    expect(mux.port).toBeGreaterThan(0);
    // 4 MiB asked; Linux grants at most net.core.rmem_max and reports twice what it grants.
    if (existsSync(RMEM_MAX)) {
      const granted = Math.min(4 * 1024 * 1024, Number(readFileSync(RMEM_MAX, 'utf8')));
      expect(mux.receiveBufferBytes).toBe(2 * granted);
    }
    const connections = await Promise.all(Array.from({ length: 10 }, () => connect(mux)));

    for (const { serverSdp, clientSdp } of connections) {
      expect(new Set(candidatePorts(serverSdp))).toEqual(new Set([mux.port]));
      // The clients, made in this process too but not through the mux, keep sockets of their own.
      expect(candidatePorts(clientSdp)).not.toContain(mux.port);
    }
    const replies = await Promise.all(connections.map(({ channel }, i) => echo(channel, `hello ${i}`)));
    expect(replies).toEqual(connections.map((_, i) => `hello ${i}`));
    expect(mux.stats()).toMatchObject({ peerConnections: 10 });
    expect(mux.stats().addresses).toBeGreaterThanOrEqual(10);

    // The clients first: what they send as they close reaches their bound transports, not the next test's count of
    // dropped datagrams (the server's side gathers at once now that it asks no STUN server, so the next test starts
    // before late datagrams would have arrived).
    await Promise.all(connections.map(({ client }) => client.close()));
    await Promise.all(connections.map(({ server }) => server.close()));
    expect(mux.stats()).toMatchObject({ peerConnections: 0, addresses: 0 });
  });

  it('drops, unanswered, a binding request for an unknown ufrag, one with a wrong password, and junk', async () => {
    const { server, ufrag } = await offering(mux);
    const { socket, received } = await rawSocket();
    const truncated = bindingRequest(ufrag, 'x'.repeat(22)).subarray(0, 30);
    const junk = [
      bindingRequest('nope', 'x'.repeat(22)),
      bindingRequest(ufrag, 'not the password at all'),
      truncated,
      Buffer.alloc(0),
      randomBytes(200),
      Buffer.from([22, 254, 253, 0, 0]), // the start of a DTLS record from an address bound to nothing
    ];
    await dropsOf(
      mux,
      () => {
        for (const data of junk) sendTo(socket, mux.port, data);
      },
      junk.length,
    );

    // The port still serves, and nothing ever answered the raw socket.
    const { client, server: connected, channel } = await connect(mux);
    expect(await echo(channel, 'still here')).toBe('still here');
    expect(received).toEqual([]);
    await client.close();
    await Promise.all([server.close(), connected.close()]);
    socket.close();
  });

  it('binds an address on an answered binding request and forgets it when its connection closes', async () => {
    const { server, ufrag, password } = await offering(mux);
    const { socket, received } = await rawSocket();
    sendTo(socket, mux.port, bindingRequest(ufrag, password));
    await vi.waitFor(() => expect(received).toHaveLength(1), ARRIVAL);
    const answer = parseMessage(received[0], Buffer.from(password, 'utf8'));
    expect(answer?.messageClass).toBe(classes.RESPONSE);
    expect(mux.stats()).toMatchObject({ peerConnections: 1, addresses: 1 });

    await server.close();
    expect(mux.stats()).toMatchObject({ peerConnections: 0, addresses: 0 });
    // From the same address: data (nothing is bound any more) and the same request (its ufrag is gone).
    await dropsOf(
      mux,
      () => {
        sendTo(socket, mux.port, Buffer.from([22, 254, 253, 0, 0]));
        sendTo(socket, mux.port, bindingRequest(ufrag, password));
      },
      2,
    );
    expect(received).toHaveLength(1);
    socket.close();
  });

  it('keeps two muxes apart: a request for one of them sent to the other goes unanswered', async () => {
    const other = await createUdpMux({ port: 0, host: HOST });
    try {
      expect(other.port).not.toBe(mux.port);
      const here = await offering(mux);
      const there = await offering(other);
      const { socket, received } = await rawSocket();

      await dropsOf(other, () => sendTo(socket, other.port, bindingRequest(here.ufrag, here.password)), 1);
      await dropsOf(mux, () => sendTo(socket, mux.port, bindingRequest(there.ufrag, there.password)), 1);
      expect(received).toEqual([]);

      // Each answers its own, and connections on both at once work.
      sendTo(socket, other.port, bindingRequest(there.ufrag, there.password));
      await vi.waitFor(() => expect(received).toHaveLength(1), ARRIVAL);
      const [a, b] = await Promise.all([connect(mux), connect(other)]);
      expect(new Set(candidatePorts(a.serverSdp))).toEqual(new Set([mux.port]));
      expect(new Set(candidatePorts(b.serverSdp))).toEqual(new Set([other.port]));
      expect(await Promise.all([echo(a.channel, 'a'), echo(b.channel, 'b')])).toEqual(['a', 'b']);
      await Promise.all([a, b].flatMap(({ client, server }) => [client.close(), server.close()]));
      await Promise.all([here.server.close(), there.server.close()]);
      socket.close();
    } finally {
      await other.close();
    }
    // One mux still open: werift's transports still come through the hook.
    expect(UdpTransport.init).not.toBe(werifts);
  });

  it('refuses a port in use with a message naming it', async () => {
    await expect(createUdpMux({ port: mux.port, host: HOST })).rejects.toThrow(
      `UDP port ${mux.port} on ${HOST} for media is already in use`,
    );
  });

  it('refuses a configuration it cannot carry', () => {
    expect(() => mux.createPeerConnection({ bundlePolicy: 'max-compat' })).toThrow(/bundlePolicy "max-compat"/);
    expect(() => mux.createPeerConnection({ iceServers: [{ urls: 'turn:turn.invalid:3478' }] })).toThrow(
      /TURN servers/,
    );
    expect(mux.stats().peerConnections).toBe(0);
  });
});
