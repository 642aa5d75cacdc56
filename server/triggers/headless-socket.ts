import type { WebSocket } from 'ws';

/**
 * The socket of a participant the server itself puts in a room (a trigger's): nobody is at the other end, so what the
 * room sends it goes nowhere. It has what the signaling hub and `sendJson` use of a `ws` socket (the states, `send`,
 * `close`, `bufferedAmount`), so that the participant joins and leaves through the hub's own `join` and `leave`,
 * which is where `participant.joined` and `participant.left` come from.
 */
class HeadlessSocket {
  readonly OPEN = 1;
  readonly CLOSED = 3;
  readyState = this.OPEN;
  readonly bufferedAmount = 0;
  send(): void {}
  close(): void {
    this.readyState = this.CLOSED;
  }
}

export const headlessSocket = (): WebSocket => new HeadlessSocket() as unknown as WebSocket;
