import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { type ClientOptions, WebSocket } from 'ws';
import type * as z from 'zod';
import { realtimeServerMessage } from '../../server/chat/realtime/protocol.js';
import { serverMessage } from '../../server/rtc/protocol.js';

export interface SocketClient {
  socket: WebSocket;
  /** Every message received so far, in order. */
  received: any[];
  /** The next message of this type (already received or still to come). */
  next(type: string, timeoutMs?: number): Promise<any>;
  send(message: unknown): void;
  /** Resolves when the server closes the socket. */
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/**
 * Opens the signaling socket with a token, as a browser would (token in the query). Every frame received must match
 * the protocol's schema, which types the SDK: a frame it refuses fails the test.
 */
export const connectSignaling = (baseUrl: string, token?: string) =>
  connectSocket(baseUrl, '/v1/rtc', token, serverMessage);

/**
 * Opens the chat realtime socket with a chat token; every frame is checked as on the signaling socket. Like a browser,
 * the client offers permessage-deflate unless `options` say otherwise.
 */
export const connectRealtime = (baseUrl: string, token?: string, options?: ClientOptions) =>
  connectSocket(baseUrl, '/v1/realtime', token, realtimeServerMessage, options);

export function connectSocket(
  baseUrl: string,
  path: string,
  token?: string,
  frameSchema?: z.ZodType,
  options?: ClientOptions,
): SocketClient {
  const url = `${baseUrl.replace(/^http/, 'ws')}${path}${token ? `?access_token=${encodeURIComponent(token)}` : ''}`;
  const socket = new WebSocket(url, options);
  const received: any[] = [];
  const consumed = new Set<unknown>();
  const waiters: { type: string; resolve: (m: any) => void; reject: (err: Error) => void }[] = [];
  /** The first frame the schema refused: from then on every `next` fails with it. */
  let refusal: Error | undefined;
  socket.on('message', (data) => {
    // A realtime frame may carry several messages, one per line.
    for (const line of data.toString().split('\n')) {
      const message = JSON.parse(line);
      const checked = frameSchema?.safeParse(message);
      if (checked && !checked.success) {
        refusal ??= new Error(`${path} sent a frame its schema refuses: ${line}\n${checked.error.message}`);
        for (const waiter of waiters.splice(0)) waiter.reject(refusal);
      }
      received.push(message);
      const waiter = waiters.find((w) => w.type === message.type);
      if (waiter) {
        waiters.splice(waiters.indexOf(waiter), 1);
        consumed.add(message);
        waiter.resolve(message);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  return {
    socket,
    received,
    closed,
    next(type, timeoutMs = 5000) {
      if (refusal) return Promise.reject(refusal);
      const ready = received.find((m) => m.type === type && !consumed.has(m));
      if (ready) {
        consumed.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no "${type}" message within ${timeoutMs} ms; got ${JSON.stringify(received)}`)),
          timeoutMs,
        );
        waiters.push({
          type,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
          reject: (err) => {
            clearTimeout(timer);
            reject(err);
          },
        });
      });
    },
    send(message) {
      socket.send(JSON.stringify(message));
    },
    close() {
      socket.close();
    },
  };
}

/** A minimal session description: one m-section per entry, e.g. `['video', 'sendrecv']`. */
export function sdp(...sections: [kind: 'audio' | 'video' | 'application', direction?: string][]): string {
  const lines = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0'];
  sections.forEach(([kind, direction], i) => {
    lines.push(
      kind === 'application' ? 'm=application 9 UDP/DTLS/SCTP webrtc-datachannel' : `m=${kind} 9 UDP/TLS/RTP/SAVPF 96`,
    );
    lines.push(`a=mid:${i}`);
    if (direction) lines.push(`a=${direction}`);
  });
  return `${lines.join('\r\n')}\r\n`;
}

/** A WebSocket client that shakes hands and then answers nothing, not even the server's close frame. */
export function silentSocket(url: string, path: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const key = randomBytes(16).toString('base64');
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => {});
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { received: async () => received, ended };
}
