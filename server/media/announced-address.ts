/**
 * The address the media process announces (`serve --rtc-announce-address`), for a server behind a 1:1 NAT or in a
 * container, where the addresses of its own interfaces are not the one clients reach. werift has no NAT option, so
 * the host candidates of the server's own descriptions are rewritten before they leave the media process: each media
 * section's host candidates become one per announced address, on the same port (the media process's one UDP port).
 * What arrives there is routed by ICE credentials, not by the address it was sent to (udp-mux.ts), so nothing else
 * changes.
 */
import { isIPv4 } from 'node:net';

/** Why `address` cannot be announced, if it cannot: an IPv4 address of a host, as a client would send to it. */
export function announcedAddressProblem(address: string): string | undefined {
  if (!isIPv4(address))
    return `"${address}" is not an IPv4 address (the media port is IPv4; give an address, not a name)`;
  if (address === '0.0.0.0' || address === '255.255.255.255' || /^(22[4-9]|2[3-5]\d)\./.test(address))
    return `"${address}" is not an address a client can send to`;
  return undefined;
}

const CANDIDATE = /^a=candidate:(\S+) (\d+) (\S+) (\d+) (\S+) (\d+) typ host(.*)$/;

/** The host candidate of `address` in place of `line`'s; a foundation of its own, preferred in the order given. */
function announced(line: RegExpExecArray, address: string, index: number): string {
  const [, , component, transport, priority, , port, rest] = line;
  const foundation = address
    .split('.')
    .map((octet) => Number(octet).toString(16).padStart(2, '0'))
    .join('');
  return `a=candidate:${foundation} ${component} ${transport} ${Number(priority) - index} ${address} ${port} typ host${rest}`;
}

/**
 * `sdp` with the host candidates of each media section replaced by one per address of `addresses`, for each
 * component announced (the port is the one every candidate has). A connection line naming an address names the
 * first. Unchanged when `addresses` is empty.
 */
export function announceAddresses(sdp: string, addresses: readonly string[]): string {
  if (addresses.length === 0) return sdp;
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const out: string[] = [];
  const done = new Set<string>();
  for (const line of sdp.split(eol)) {
    if (line.startsWith('m=')) done.clear();
    const candidate = CANDIDATE.exec(line);
    if (candidate) {
      // One set per component and transport of the section: the others were the same socket's other addresses.
      const key = `${candidate[2]} ${candidate[3]}`;
      if (!done.has(key)) {
        done.add(key);
        out.push(...addresses.map((address, index) => announced(candidate, address, index)));
      }
      continue;
    }
    const connection = /^c=IN IP4 (\S+)$/.exec(line);
    if (connection && connection[1] !== '0.0.0.0') {
      out.push(`c=IN IP4 ${addresses[0]}`);
      continue;
    }
    out.push(line);
  }
  return out.join(eol);
}
