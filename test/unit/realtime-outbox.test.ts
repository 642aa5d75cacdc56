import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { createRealtimeOutbox, type RealtimeOutbox } from '../../server/chat/realtime/outbox.js';
import { CLOSE_UNRESPONSIVE, MAX_BUFFERED_BYTES } from '../../server/http/socket-endpoint.js';

/** What the outbox uses of a `ws` socket, recording the frames it is given. */
function fakeSocket(state: { open?: boolean; bufferedAmount?: number } = {}) {
  const frames: Buffer[] = [];
  const closes: number[] = [];
  const socket = {
    OPEN: 1,
    readyState: state.open === false ? 3 : 1,
    bufferedAmount: state.bufferedAmount ?? 0,
    send: (data: Buffer, options: { binary: boolean }) => {
      expect(options.binary).toBe(false);
      frames.push(data);
    },
    close: (code: number) => closes.push(code),
  };
  return { socket: socket as unknown as WebSocket, frames, closes, lines: () => frames.map((f) => f.toString()) };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('realtime outbox', () => {
  let outbox: RealtimeOutbox;
  afterEach(() => outbox.close());

  it('sends a burst as one frame per socket, one JSON message per line, in order', async () => {
    outbox = createRealtimeOutbox();
    const a = fakeSocket();
    const b = fakeSocket();
    const events = [1, 2, 3].map((n) => outbox.encode({ type: 'message.created', n }));
    for (const event of events) outbox.push(a.socket, event);
    outbox.push(b.socket, events[1]);
    expect(a.frames).toHaveLength(0);

    await nextTurn();
    expect(a.frames).toHaveLength(1);
    expect(
      a.frames[0]
        .toString()
        .split('\n')
        .map((line) => JSON.parse(line).n),
    ).toEqual([1, 2, 3]);
    expect(b.lines()).toEqual(['{"type":"message.created","n":2}']);
  });

  it('builds a frame once for every socket with the same queue', async () => {
    outbox = createRealtimeOutbox();
    const sockets = [fakeSocket(), fakeSocket(), fakeSocket()];
    const events = [outbox.encode({ n: 1 }), outbox.encode({ n: 2 })];
    for (const s of sockets) for (const event of events) outbox.push(s.socket, event);
    await nextTurn();
    const [first, ...others] = sockets.map((s) => s.frames[0]);
    for (const frame of others) expect(frame).toBe(first);
    expect(first.toString()).toBe('{"n":1}\n{"n":2}');
  });

  it('skips closed sockets and drops a client whose unsent data piled up', async () => {
    outbox = createRealtimeOutbox();
    const closed = fakeSocket({ open: false });
    const slow = fakeSocket({ bufferedAmount: MAX_BUFFERED_BYTES + 1 });
    const event = outbox.encode({ n: 1 });
    outbox.push(closed.socket, event);
    outbox.push(slow.socket, event);
    await nextTurn();
    expect(closed.frames).toHaveLength(0);
    expect(slow.frames).toHaveLength(0);
    expect(slow.closes).toEqual([CLOSE_UNRESPONSIVE]);
  });

  it('sends what is pushed after a flush in a later frame, and nothing after close()', async () => {
    outbox = createRealtimeOutbox();
    const a = fakeSocket();
    outbox.push(a.socket, outbox.encode({ n: 1 }));
    await nextTurn();
    outbox.push(a.socket, outbox.encode({ n: 2 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(a.lines()).toEqual(['{"n":1}', '{"n":2}']);

    outbox.push(a.socket, outbox.encode({ n: 3 }));
    outbox.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(a.lines()).toEqual(['{"n":1}', '{"n":2}']);
  });
});
