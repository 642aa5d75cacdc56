/**
 * What the media process announces (server/media/announced-address.ts), and what it asks for its candidates: its
 * host candidates rewritten to the announced addresses, and no STUN server asked, werift's public default included.
 */
import { Socket } from 'node:dgram';
import { promises as dns } from 'node:dns';
import { afterEach, expect, it, vi } from 'vitest';
import { announceAddresses, announcedAddressProblem } from '../../server/media/announced-address.js';
import { gatheredDescription, newPeerConnection } from '../../server/media/peer-connection.js';
import { createUdpMux } from '../../server/media/udp-mux.js';

const SERVER_SDP = [
  'v=0',
  'o=- 1 0 IN IP4 0.0.0.0',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0 1',
  'm=audio 40100 UDP/TLS/RTP/SAVPF 111',
  'c=IN IP4 192.0.2.2',
  'a=mid:0',
  'a=candidate:1 1 udp 2130706431 127.0.0.1 40100 typ host generation 0 ufrag ab12',
  'a=candidate:2 1 udp 2130706431 192.0.2.2 40100 typ host generation 0 ufrag ab12',
  'a=candidate:3 1 udp 2130706431 172.17.0.1 40100 typ host generation 0 ufrag ab12',
  'a=end-of-candidates',
  'm=video 9 UDP/TLS/RTP/SAVPF 96',
  'c=IN IP4 0.0.0.0',
  'a=mid:1',
  '',
].join('\r\n');

afterEach(() => {
  vi.restoreAllMocks();
});

it('announces the configured addresses in place of every host candidate, on the same port', () => {
  const sdp = announceAddresses(SERVER_SDP, ['203.0.113.7', '10.0.0.5']);
  expect(sdp.split('\r\n').filter((line) => line.startsWith('a=candidate:'))).toEqual([
    'a=candidate:cb007107 1 udp 2130706431 203.0.113.7 40100 typ host generation 0 ufrag ab12',
    'a=candidate:0a000005 1 udp 2130706430 10.0.0.5 40100 typ host generation 0 ufrag ab12',
  ]);
  expect(sdp).toContain('c=IN IP4 203.0.113.7\r\n');
  // The rest is left as it was: the bundled section without candidates, its 0.0.0.0, the line ends.
  expect(sdp).toContain('m=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 0.0.0.0\r\na=mid:1\r\n');
  expect(sdp.endsWith('a=end-of-candidates\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 0.0.0.0\r\na=mid:1\r\n')).toBe(
    true,
  );
  expect(announceAddresses(SERVER_SDP, [])).toBe(SERVER_SDP);
});

it('refuses to announce what a client cannot send to: names, IPv6, the unspecified and multicast addresses', () => {
  expect(announcedAddressProblem('203.0.113.7')).toBeUndefined();
  expect(announcedAddressProblem('media.example.com')).toMatch(/not an IPv4 address/);
  expect(announcedAddressProblem('2001:db8::1')).toMatch(/not an IPv4 address/);
  expect(announcedAddressProblem('0.0.0.0')).toMatch(/not an address a client can send to/);
  expect(announcedAddressProblem('239.1.2.3')).toMatch(/not an address a client can send to/);
});

it('gathers its candidates without asking any STUN server, werift’s default (stun.l.google.com) included', async () => {
  const destinations: string[] = [];
  const send = Socket.prototype.send;
  vi.spyOn(Socket.prototype, 'send').mockImplementation(function (this: Socket, ...args: unknown[]) {
    const [port, address] = args.filter((arg) => typeof arg === 'string' || typeof arg === 'number');
    destinations.push(`${address}:${port}`);
    return (send as (...a: unknown[]) => void).apply(this, args);
  } as typeof send);
  // werift resolves a STUN server's name before sending to it: where no resolver answers (as here), nothing is sent.
  const lookup = dns.lookup;
  vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, ...rest: unknown[]) => {
    destinations.push(hostname);
    return (lookup as (...a: unknown[]) => unknown)(hostname, ...rest);
  }) as typeof lookup);
  const mux = await createUdpMux({ port: 0 });
  try {
    const pc = newPeerConnection(mux);
    pc.createDataChannel('anchor');
    await pc.setLocalDescription(await pc.createOffer());
    const sdp = await gatheredDescription(pc);
    expect(sdp).toMatch(/^a=candidate:.* 127\.0\.0\.1 \d+ typ host/m);
    expect(sdp).not.toMatch(/typ srflx/);
    // No name was looked up and nothing was sent anywhere while gathering (werift 0.25.2 would look up
    // stun.l.google.com and send it a binding request from the media port).
    expect(destinations).toEqual([]);
  } finally {
    await mux.close();
  }
});
