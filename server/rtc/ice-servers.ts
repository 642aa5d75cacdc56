/**
 * The ICE servers given to clients in `joined.iceServers` (`serve --rtc-ice-servers`): STUN and TURN servers of the
 * team's own, for clients that cannot reach each other (the mesh) or the server's media port (the SFU) by their host
 * addresses. None by default: nothing contacts a host on the internet. The server's own peer connections use none
 * (the media process's one UDP port cannot carry a TURN allocation, and its host candidates need no STUN server).
 */
// A type only: the server checks its options before it listens, and zod loads after (test/unit/start-up-imports).
import type { IceServer } from './protocol.js';

export type { IceServer };

/** `stun:host[:port]`, `turn:host[:port][?transport=udp|tcp]`, `turns:host[:port][?transport=tcp]` (RFC 7064/7065). */
const ICE_URL = /^(stun|turns?):(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?(\?transport=(udp|tcp))?$/i;

/** Why `url` is not a STUN or TURN URL a browser takes, if it is not. */
export function iceServerUrlProblem(url: string): string | undefined {
  const match = ICE_URL.exec(url);
  if (!match) return `"${url}" is not a stun:, turn: or turns: URL (e.g. stun:stun.example.com:3478)`;
  const [, scheme, , port, query] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return `"${url}" has no valid port`;
  if (scheme.toLowerCase() === 'stun' && query) return `"${url}": a stun: URL takes no transport`;
  return undefined;
}

/** Whether the URL is a TURN server's (which needs a username and credential). */
export const isTurnUrl = (url: string) => /^turns?:/i.test(url);

/**
 * The servers for `joined.iceServers`: the STUN URLs as one server, the TURN URLs as another with the credentials.
 * Throws (with the problem in one line) on a URL browsers would refuse, TURN without credentials or credentials
 * without TURN.
 */
export function iceServersOf(urls: readonly string[], turn?: { username: string; credential: string }): IceServer[] {
  for (const url of urls) {
    const problem = iceServerUrlProblem(url);
    if (problem) throw new Error(problem);
  }
  const stun = urls.filter((url) => !isTurnUrl(url));
  const relays = urls.filter(isTurnUrl);
  if (relays.length > 0 && !turn) throw new Error('a TURN server needs a username and a credential');
  if (relays.length === 0 && turn) throw new Error('a TURN username and credential need a turn: or turns: URL');
  return [...(stun.length ? [{ urls: stun }] : []), ...(turn && relays.length ? [{ urls: relays, ...turn }] : [])];
}
