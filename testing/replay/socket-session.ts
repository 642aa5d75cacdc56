import WebSocket from 'ws';
import type { SocketPlan } from './plan.js';

/** A recorded socket opened again against the target: what it received, and how it closed. */
export class ReplayedSocket {
  readonly received: string[] = [];
  /** How many of `received` were read beside the recorded frames for ids. */
  learnt = 0;
  closed?: { code: number; reason: string };
  /** Set once a wait for its frames gave up: later waits are short. */
  late = false;
  private readonly socket: WebSocket;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly plan: SocketPlan,
    url: string,
  ) {
    this.socket = new WebSocket(url);
    this.socket.on('message', (data) => {
      this.received.push(data.toString());
      this.wake();
    });
    this.socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    // A refused handshake closes the socket too; the error itself says nothing the comparison needs.
    this.socket.on('error', () => {});
  }

  private wake(): void {
    for (const waiter of this.waiters) waiter();
  }

  /** Resolves once it is open (or failed to open). */
  opened(): Promise<void> {
    if (this.socket.readyState !== WebSocket.CONNECTING) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('open', () => resolve());
      this.socket.once('close', () => resolve());
    });
  }

  /** Resolves true once it has received `count` frames, false after `timeoutMs` or when it closed short of them. */
  receivedAtLeast(count: number, timeoutMs: number): Promise<boolean> {
    if (this.received.length >= count) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (reached: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(reached);
      };
      const check = () => {
        if (this.received.length >= count) done(true);
        else if (this.closed) done(false);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.waiters.add(check);
    });
  }

  send(data: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(data);
  }

  /** Closes it as a client does (1000), and resolves once it is closed. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      if (this.socket.readyState === WebSocket.CONNECTING) this.socket.terminate();
      else this.socket.close(1000);
    });
  }
}
