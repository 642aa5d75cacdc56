/**
 * The benchmark's werift clients: their peer connections, and `/v1/rtc` as they speak it (a socket per participant,
 * messages awaited by type).
 */
import { RTCPeerConnection } from 'werift';
import WebSocket from 'ws';

/** A werift peer connection on loopback only, with no STUN server (as test/media/werift-client.ts makes them). */
export function newClient(): RTCPeerConnection {
  return new RTCPeerConnection({
    iceServers: [],
    bundlePolicy: 'max-bundle',
    iceUseIpv6: false,
    iceInterfaceAddresses: { udp4: '127.0.0.1' },
    iceAdditionalHostAddresses: ['127.0.0.1'],
  });
}

export interface Signaling {
  /** The next message of this type (already received and not yet taken, or still to come). */
  next<T = { type: string; sdp: string }>(type: string, timeoutMs?: number): Promise<T>;
  /** Every later message of this type, as it comes (e.g. the server's renegotiations). */
  on(type: string, handler: (message: { type: string; sdp: string }) => void): void;
  send(message: object): void;
  close(): void;
}

export async function openSignaling(baseUrl: string, token: string): Promise<Signaling> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/v1/rtc?access_token=${encodeURIComponent(token)}`);
  const queued: { type: string; sdp: string }[] = [];
  const waiters: { type: string; resolve: (message: never) => void }[] = [];
  const handlers = new Map<string, (message: { type: string; sdp: string }) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string; sdp: string; message?: string };
    if (message.type === 'error') console.error(`bench sfu: the server said ${JSON.stringify(message)}`);
    const waiter = waiters.findIndex((w) => w.type === message.type);
    if (waiter >= 0) waiters.splice(waiter, 1)[0].resolve(message as never);
    else if (handlers.has(message.type)) handlers.get(message.type)?.(message);
    else queued.push(message);
  });
  const signaling: Signaling = {
    next<T>(type: string, timeoutMs = 30_000) {
      const index = queued.findIndex((m) => m.type === type);
      if (index >= 0) return Promise.resolve(queued.splice(index, 1)[0] as T);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs / 1000} s`)), timeoutMs);
        waiters.push({
          type,
          resolve: (message) => {
            clearTimeout(timer);
            resolve(message);
          },
        });
      });
    },
    on(type, handler) {
      handlers.set(type, handler);
      const waiting = queued.filter((m) => m.type === type);
      queued.splice(0, queued.length, ...queued.filter((m) => m.type !== type));
      for (const message of waiting) handler(message);
    },
    send: (message) => socket.send(JSON.stringify(message)),
    close: () => socket.close(),
  };
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  await signaling.next('joined');
  return signaling;
}
