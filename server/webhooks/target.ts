import { isIPv4, isIPv6 } from 'node:net';
import type { DeploymentMode } from '../context.js';

/**
 * Where a webhook may be sent (spec section 8). The check reads the URL's hostname only: it resolves
 * no DNS and the worker follows no redirects, so a public name that resolves to a private address
 * passes; egress filtering is the deployer's duty. The WHATWG URL parser has already normalised
 * the odd spellings of addresses (`0x7f.1`, `2130706433`, `[::ffff:127.0.0.1]`), so the checks see
 * canonical forms.
 */

/** What kind of place an address is, where that matters to the check; `public` for the rest. */
export type AddressKind =
  | 'loopback'
  | 'private'
  | 'unspecified'
  | 'link-local'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'public';

/** Kinds a `local` deployment allows: the developer's own machine and network. */
const LOCAL_ALLOWED: ReadonlySet<AddressKind> = new Set(['public', 'loopback', 'private', 'unspecified']);

const KIND_WORDS: Record<Exclude<AddressKind, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  unspecified: 'the unspecified address',
  'link-local': 'a link-local address (where cloud metadata services live)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
};

/**
 * Why the URL may not receive webhooks in this deployment mode, or null when it may: every rule it breaks at once
 * (joined by `; `), so that fixing one does not only reveal the next.
 */
export function targetRefusal(rawUrl: string, mode: DeploymentMode): string | null {
  const guessed = withoutScheme(rawUrl, mode);
  if (guessed) {
    return [`it has no scheme: write ${guessed.href}`, ...rulesBroken(guessed, mode)].join('; ');
  }
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return 'it is not an absolute URL (write it as https://host/path)';
  }
  const broken = rulesBroken(url, mode);
  return broken.length > 0 ? broken.join('; ') : null;
}

function rulesBroken(url: URL, mode: DeploymentMode): string[] {
  const broken: string[] = [];
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const allowed = mode === 'production' ? 'use https://' : 'use http:// or https://';
    // Nothing more to say about a URL that is not web at all (`javascript:`, `data:`): it has no host to check.
    return [`the scheme ${url.protocol.slice(0, -1)} is not allowed (${allowed})`];
  }
  if (url.username || url.password) broken.push('it must not contain a user name or password');
  if (mode === 'production' && url.protocol !== 'https:') broken.push('production deployments require https://');
  const kind = addressKind(url.hostname);
  if (kind === 'public' || (mode === 'local' && LOCAL_ALLOWED.has(kind))) return broken;
  const rule = LOCAL_ALLOWED.has(kind)
    ? 'and production deployments refuse loopback, private, link-local and unspecified addresses'
    : 'which no deployment mode allows';
  broken.push(`${url.hostname} is ${KIND_WORDS[kind]}, ${rule}`);
  return broken;
}

/**
 * The URL meant by one written without its scheme (`localhost:3000/hook`, `example.com/hook`), which the URL parser
 * refuses or reads as the scheme `localhost:`; undefined for a URL with a scheme. The scheme guessed is https://, or
 * http:// for the developer's own machine and network in a local deployment (where servers seldom have
 * certificates).
 */
export function withoutScheme(rawUrl: string, mode: DeploymentMode): URL | undefined {
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(rawUrl)) return undefined;
  // `host:port…` reads as a scheme and a path; a real scheme (`mailto:x`, `data:…`) is not followed by a port.
  const hostAndPort = /^[^:/?#\s]+:\d+(?:[/?#]|$)/.test(rawUrl);
  if (!hostAndPort && URL.canParse(rawUrl)) return undefined;
  if (!URL.canParse(`https://${rawUrl}`)) return undefined;
  const https = new URL(`https://${rawUrl}`);
  // Without a port, a name with no dot is a word rather than a host (`hooks/x`), but for localhost.
  if (!hostAndPort && !/[.:\]]|^localhost$/i.test(https.hostname)) return undefined;
  const local = mode === 'local' && addressKind(https.hostname) !== 'public';
  return local ? new URL(`http://${rawUrl}`) : https;
}

/** Classifies a URL hostname (as `URL.hostname` gives it: IPv6 in brackets, lower case). */
export function addressKind(hostname: string): AddressKind {
  const host = hostname.replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (isIPv4(host)) return ipv4Kind(ipv4Octets(host));
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv6(bare)) return ipv6Kind(ipv6Hextets(bare));
  return 'public';
}

function ipv4Octets(text: string): number[] {
  return text.split('.').map(Number);
}

function ipv4Kind([a, b, c, d]: number[]): AddressKind {
  if (a === 0) return 'unspecified'; // 0.0.0.0/8: "this network"; 0.0.0.0 reaches the local host
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // 100.64.0.0/10, carrier-grade NAT
  if (a === 169 && b === 254) return 'link-local';
  if (a === 255 && b === 255 && c === 255 && d === 255) return 'broadcast';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  if (a === 192 && b === 0 && c === 0) return 'reserved'; // 192.0.0.0/24, IETF protocol assignments
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // 198.18.0.0/15, benchmarking
  return 'public';
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Hextets(text: string): number[] {
  let address = text.split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const [a, b, c, d] = ipv4Octets(dotted[1]);
    address = `${address.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = address.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((h) => Number.parseInt(h, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : new Array(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

function ipv6Kind(h: number[]): AddressKind {
  const embeddedIpv4 = (hi: number, lo: number) => ipv4Kind([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const firstSixZero = h.slice(0, 6).every((x) => x === 0);
  if (firstSixZero && h[6] === 0 && h[7] === 0) return 'unspecified';
  if (firstSixZero && h[6] === 0 && h[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible) reach the IPv4 address inside.
  if (h.slice(0, 5).every((x) => x === 0) && (h[5] === 0xffff || h[5] === 0)) return embeddedIpv4(h[6], h[7]);
  // 64:ff9b::/96 (NAT64) and 2002::/16 (6to4) carry an IPv4 address too.
  if (h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0)) return embeddedIpv4(h[6], h[7]);
  if (h[0] === 0x2002) return embeddedIpv4(h[1], h[2]);
  if ((h[0] & 0xfe00) === 0xfc00) return 'private'; // fc00::/7, unique local
  if ((h[0] & 0xffc0) === 0xfec0) return 'private'; // fec0::/10, the former site-local
  if ((h[0] & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((h[0] & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  return 'public';
}
