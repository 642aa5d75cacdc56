import { toIso } from '../clock.js';
import type { RecordedCredential } from './credential.js';
import type { HarHeader } from './redact.js';

/** A REST exchange as it is stored (`kind` http), secrets already replaced. */
export interface HttpExchange {
  method: string;
  url: string;
  requestHeaders: HarHeader[];
  requestBody: string;
  status: number;
  responseHeaders: HarHeader[];
  responseBody: string;
  timeMs: number;
  /** Which credential it used (its secret is redacted): what a replay mints again. */
  credential?: RecordedCredential;
}

/** A webhook delivery attempt as it is stored (`kind` webhook). */
export interface WebhookAttemptRecord {
  webhookId: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  url: string;
  requestHeaders: HarHeader[];
  requestBody: string;
  /** Null when no answer came (a connection failure, a timeout, an attempt not sent). */
  status: number | null;
  error: string | null;
  responseBody: string | null;
  timeMs: number;
}

export interface SocketOpening {
  socket: 'realtime' | 'signaling';
  url: string;
  credential?: RecordedCredential;
}
export interface SocketFrame {
  type: 'send' | 'receive';
  data: string;
  /** For a frame sent to many sockets at once (`connectionId` null): the `conn_` ids of all of them. */
  connections?: string[];
}
export interface SocketClosing {
  code: number;
  reason: string;
}

/** One stored entry, as the download reads it. */
export interface StoredEntry {
  kind: string;
  connectionId: string | null;
  at: number;
  clockAt: number;
  data: string;
}

type HarEntry = Record<string, unknown> & { startedDateTime: string };

const queryString = (url: string) => [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
const mimeOf = (headers: HarHeader[]) =>
  headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? 'application/json';

function request(method: string, url: string, headers: HarHeader[], body: string | null) {
  return {
    method,
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers,
    queryString: queryString(url),
    ...(body ? { postData: { mimeType: mimeOf(headers), text: body } } : {}),
    headersSize: -1,
    bodySize: body ? Buffer.byteLength(body) : 0,
  };
}

function response(status: number, statusText: string, headers: HarHeader[], body: string | null) {
  const text = body ?? '';
  return {
    status,
    statusText,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers,
    content: { size: Buffer.byteLength(text), mimeType: mimeOf(headers), text },
    redirectURL: '',
    headersSize: -1,
    bodySize: Buffer.byteLength(text),
  };
}

const timings = (timeMs: number) => ({ send: 0, wait: timeMs, receive: 0 });

function httpEntry(row: StoredEntry, x: HttpExchange): HarEntry {
  return {
    startedDateTime: toIso(row.at),
    time: x.timeMs,
    request: request(x.method, x.url, x.requestHeaders, x.requestBody),
    response: response(x.status, '', x.responseHeaders, x.responseBody),
    cache: {},
    timings: timings(x.timeMs),
    _switchboardKind: 'rest',
    ...(x.credential ? { _credential: x.credential } : {}),
    _testClock: toIso(row.clockAt),
  };
}

function webhookEntry(row: StoredEntry, x: WebhookAttemptRecord): HarEntry {
  return {
    startedDateTime: toIso(row.at),
    time: x.timeMs,
    request: request('POST', x.url, x.requestHeaders, x.requestBody),
    // No answer (HAR's status 0, as browsers write a failed request), with why in `_error`.
    response: response(x.status ?? 0, '', [], x.responseBody),
    cache: {},
    timings: timings(x.timeMs),
    _switchboardKind: 'webhook',
    _webhook: { webhookId: x.webhookId, deliveryId: x.deliveryId, eventId: x.eventId, eventType: x.eventType },
    ...(x.error ? { _error: x.error } : {}),
    _testClock: toIso(row.clockAt),
  };
}

interface SocketEntry {
  first: StoredEntry;
  opening?: SocketOpening;
  messages: { type: string; time: number; opcode: number; data: string }[];
  closing?: { at: number; code: number; reason: string };
}

function socketEntry(connectionId: string, s: SocketEntry): HarEntry {
  const end = s.closing?.at ?? s.messages.at(-1)?.time ?? s.first.at / 1000;
  const timeMs = Math.max(0, Math.round((s.closing ? s.closing.at : end * 1000) - s.first.at));
  const url = s.opening?.url ?? 'ws://switchboard.invalid/';
  return {
    startedDateTime: toIso(s.first.at),
    time: timeMs,
    request: request('GET', url, [], null),
    response: response(101, 'Switching Protocols', [], null),
    cache: {},
    timings: timings(timeMs),
    _resourceType: 'websocket',
    _switchboardKind: s.opening?.socket ?? 'socket',
    _connectionId: connectionId,
    ...(s.opening?.credential ? { _credential: s.opening.credential } : {}),
    _webSocketMessages: s.messages,
    ...(s.closing ? { _webSocketClose: { code: s.closing.code, reason: s.closing.reason } } : {}),
    _testClock: toIso(s.first.clockAt),
  };
}

/** The recording's entries, in the order they were taken, as a HAR 1.2 document. */
export function buildHar(rows: readonly StoredEntry[], creator: { name: string; version: string }, comment: string) {
  const entries: HarEntry[] = [];
  const sockets = new Map<string, SocketEntry>();
  const socketOf = (connectionId: string, row: StoredEntry): SocketEntry => {
    let socket = sockets.get(connectionId);
    if (!socket) {
      socket = { first: row, messages: [] };
      sockets.set(connectionId, socket);
    }
    return socket;
  };
  for (const row of rows) {
    if (row.kind === 'http') entries.push(httpEntry(row, JSON.parse(row.data) as HttpExchange));
    else if (row.kind === 'webhook') entries.push(webhookEntry(row, JSON.parse(row.data) as WebhookAttemptRecord));
    else if (row.kind === 'frame' && !row.connectionId) {
      const frame = JSON.parse(row.data) as SocketFrame;
      for (const connectionId of frame.connections ?? [])
        socketOf(connectionId, row).messages.push({
          type: frame.type,
          time: row.at / 1000,
          opcode: 1,
          data: frame.data,
        });
    } else if (row.connectionId) {
      const socket = socketOf(row.connectionId, row);
      if (row.kind === 'socket_open') socket.opening = JSON.parse(row.data) as SocketOpening;
      else if (row.kind === 'frame') {
        const frame = JSON.parse(row.data) as SocketFrame;
        socket.messages.push({ type: frame.type, time: row.at / 1000, opcode: 1, data: frame.data });
      } else if (row.kind === 'socket_close')
        socket.closing = { at: row.at, ...(JSON.parse(row.data) as SocketClosing) };
    }
  }
  for (const [connectionId, socket] of sockets) entries.push(socketEntry(connectionId, socket));
  entries.sort((a, b) => (a.startedDateTime < b.startedDateTime ? -1 : a.startedDateTime > b.startedDateTime ? 1 : 0));
  return { log: { version: '1.2' as const, creator, pages: [], entries, comment } };
}
