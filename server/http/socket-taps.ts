import type { WebSocket } from 'ws';

/**
 * Where a socket's frames go while its environment is being recorded (server/recordings): one tap per socket of the
 * realtime and signaling endpoints, set at the handshake. `frame` is told every text frame, both ways; the recording
 * service decides whether the socket's environment is being recorded.
 */
export interface SocketTap {
  /**
   * A text frame. A Buffer is a frame built once for many sockets (server/http/shared-frame.ts): the same Buffer for
   * each, which a recording keeps once with the list of sockets it went to.
   */
  frame(direction: 'send' | 'receive', payload: string | Buffer): void;
}

export const socketTaps = new WeakMap<WebSocket, SocketTap>();

/**
 * How many recordings are running, summed over the servers of this process: while none is, a frame costs one
 * comparison, not a lookup of its socket's tap (a message goes to every subscriber's socket).
 */
export const runningRecordings = { count: 0 };

/** A frame the server sends (the client receives it, as Chrome's HAR files say). */
export function tapSent(socket: WebSocket, payload: string | Buffer): void {
  if (runningRecordings.count === 0) return;
  socketTaps.get(socket)?.frame('receive', payload);
}

/** A frame the client sent. */
export function tapReceived(socket: WebSocket, payload: Buffer): void {
  if (runningRecordings.count === 0) return;
  socketTaps.get(socket)?.frame('send', payload.toString('utf8'));
}
