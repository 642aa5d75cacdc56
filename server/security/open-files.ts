import { readFileSync } from 'node:fs';

/**
 * The process's limit on open files: the soft RLIMIT_NOFILE, which Node raises to the hard limit as it starts, from
 * `/proc/self/limits`. Null where that cannot be read (not Linux) or says `unlimited`: then nothing is checked.
 */
export function readOpenFileLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | null {
  let limits: string;
  try {
    limits = read();
  } catch {
    return null;
  }
  const match = /^Max open files\s+(\d+)\s/m.exec(limits);
  return match ? Number(match[1]) : null;
}

/**
 * Files that connections must leave free: a tenth of the limit, at least 256. They are for the database (its file,
 * WAL, shared memory and the data folder's lock), the logs, outbound webhooks (up to 4 at once per endpoint, and
 * their keep-alive pool), the attachment or page file an HTTP connection may be sending, and Node's own.
 */
export function filesKeptFree(openFiles: number): number {
  return Math.max(256, Math.ceil(openFiles / 10));
}

/** Connections of each kind open at once: plain HTTP ones, and upgraded WebSockets (realtime and signaling). */
export interface ConnectionAllowances {
  http: number;
  webSockets: number;
}

/** What the defaults shrink to at the least, however little the limit leaves them. */
const SMALLEST_DEFAULT = 100;

/**
 * The allowances: those given as they are, the others at their defaults where the defaults and what was given fit
 * under the open-file limit with `filesKeptFree` to spare. Where they do not, a default beside a given allowance takes
 * what is left; with both defaulted, WebSockets keep their default while that leaves HTTP a quarter of the room, and
 * HTTP takes the rest. WebSockets first: each client holds one for as long as it is online, while its HTTP
 * connections come and go (idle ones close after a few seconds), so the same clients need far fewer of them. Never
 * below SMALLEST_DEFAULT. Without a known limit the defaults stand.
 */
export function fitAllowances(
  openFiles: number | null,
  defaults: ConnectionAllowances,
  given: Partial<ConnectionAllowances>,
): ConnectionAllowances {
  const wanted = { http: given.http ?? defaults.http, webSockets: given.webSockets ?? defaults.webSockets };
  if (openFiles === null) return wanted;
  const room = Math.max(0, openFiles - filesKeptFree(openFiles) - (given.http ?? 0) - (given.webSockets ?? 0));
  const atLeastSmallest = (value: number) => Math.max(SMALLEST_DEFAULT, value);
  if (given.http !== undefined && given.webSockets !== undefined) return wanted;
  if (given.webSockets !== undefined)
    return { http: atLeastSmallest(Math.min(defaults.http, room)), webSockets: given.webSockets };
  if (given.http !== undefined)
    return { http: given.http, webSockets: atLeastSmallest(Math.min(defaults.webSockets, room)) };
  if (defaults.http + defaults.webSockets <= room) return wanted;
  const webSockets = Math.min(defaults.webSockets, room - Math.ceil(room / 4));
  return { http: atLeastSmallest(room - webSockets), webSockets: atLeastSmallest(webSockets) };
}

/** What to warn an operator of when the allowances do not fit under the open-file limit; undefined when they do. */
export function openFilesWarning(openFiles: number | null, allowances: ConnectionAllowances): string | undefined {
  if (openFiles === null) return undefined;
  const keptFree = filesKeptFree(openFiles);
  if (allowances.http + allowances.webSockets + keptFree <= openFiles) return undefined;
  return (
    `This process may open ${openFiles} files, but up to ${allowances.http} HTTP connections and ` +
    `${allowances.webSockets} WebSockets may be open at once, and ${keptFree} files are kept for the database, logs ` +
    'and outbound webhooks: near the limit, connections and files fail to open (EMFILE). Raise the limit ' +
    '(LimitNOFILE= in a systemd unit, ulimit -Hn) or lower --max-connections and --max-websockets.'
  );
}
