import { constants, inflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { createAudience } from '../../server/chat/realtime/audience.js';
import { createRealtimeOutbox, type RealtimeOutbox, type Recipient } from '../../server/chat/realtime/outbox.js';
import { CLOSE_UNRESPONSIVE, MAX_BUFFERED_BYTES } from '../../server/http/socket-endpoint.js';

/** A frame's payload (a server's frame: never masked), inflated if RSV1 says it is compressed (RFC 7692). */
function payloadOf(wire: Buffer): Buffer {
  const length = wire[1] & 0x7f;
  const payload = wire.subarray(length === 127 ? 10 : length === 126 ? 4 : 2);
  const compressed = (wire[0] & 0x40) !== 0;
  if (!compressed) return payload;
  const flushed = Buffer.concat([payload, Buffer.from([0, 0, 0xff, 0xff])]);
  return inflateRawSync(flushed, { finishFlush: constants.Z_SYNC_FLUSH });
}

/**
 * A recipient with what the outbox uses of a `ws` socket, recording the frames written to it: `wires` as written, and
 * `frames`, their payloads.
 */
function fakeSocket(
  state: {
    open?: boolean;
    bufferedAmount?: number;
    userId?: string;
    sendMs?: number;
    deflate?: boolean;
    /** `ws` holds sends back in its queue (as while it compresses a message itself). */
    senderBusy?: boolean;
  } = {},
) {
  const wires: Buffer[] = [];
  const frames: Buffer[] = [];
  /** When each frame was written (performance.now()). */
  const sentAt: number[] = [];
  const closes: number[] = [];
  /** Payloads handed to `ws`'s own `send`, which frames them after what its queue holds. */
  const queued: string[] = [];
  const socket = {
    OPEN: 1,
    readyState: state.open === false ? 3 : 1,
    bufferedAmount: state.bufferedAmount ?? 0,
    _extensions: state.deflate ? { 'permessage-deflate': {} } : {},
    send: (data: Buffer, options: { binary: boolean }) => {
      expect(options.binary).toBe(false);
      queued.push(data.toString());
    },
    _sender: {
      _state: state.senderBusy ? 1 : 0,
      sendFrame: ([wire, ...rest]: Buffer[]) => {
        expect(rest).toEqual([]);
        // A text frame, whole.
        expect(wire[0] & 0x8f).toBe(0x81);
        // A slow write, as with many sockets: the outbox times its flushes.
        const until = performance.now() + (state.sendMs ?? 0);
        while (performance.now() < until);
        wires.push(wire);
        frames.push(payloadOf(wire));
        sentAt.push(performance.now());
      },
    },
    close: (code: number) => closes.push(code),
  };
  const recipient: Recipient = { socket: socket as unknown as WebSocket, userId: state.userId ?? 'someone' };
  return { recipient, wires, frames, sentAt, closes, queued, lines: () => frames.map((f) => f.toString()) };
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
    for (const event of events) outbox.push(a.recipient, event);
    outbox.push(b.recipient, events[1]);
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

  it('sends an event into a quiet outbox at once, even a moment after the last flush', async () => {
    outbox = createRealtimeOutbox();
    const a = fakeSocket();
    outbox.push(a.recipient, outbox.encode({ n: 1 }));
    await nextTurn();
    // Less than the 16 ms floor of a busy outbox, more than three times any plausible first write (even with a GC pause).
    await new Promise((resolve) => setTimeout(resolve, 10));
    outbox.push(a.recipient, outbox.encode({ n: 2 }));
    await nextTurn();
    expect(a.lines()).toEqual(['{"n":1}', '{"n":2}']);
  });

  it('paces flushes once events come faster than it flushes them, and batches what waited', async () => {
    outbox = createRealtimeOutbox();
    // Each write takes 3 ms, so the next flush waits three times that: events pushed meanwhile are behind.
    const slow = fakeSocket({ sendMs: 3 });
    const sent = async (count: number) => {
      while (slow.frames.length < count) await nextTurn();
    };
    outbox.push(slow.recipient, outbox.encode({ n: 1 }));
    await sent(1);
    outbox.push(slow.recipient, outbox.encode({ n: 2 }));
    outbox.push(slow.recipient, outbox.encode({ n: 3 }));
    await nextTurn();
    expect(slow.frames).toHaveLength(1);
    await sent(2);
    expect(slow.lines()[1]).toBe('{"n":2}\n{"n":3}');

    // That flush was behind, so the next one keeps the 16 ms floor after it (measured between the writes themselves:
    // a busy machine can only lengthen the gap).
    outbox.push(slow.recipient, outbox.encode({ n: 4 }));
    await sent(3);
    expect(slow.sentAt[2] - slow.sentAt[1]).toBeGreaterThanOrEqual(15);
  });

  it('sends a lone event at once even within the gap after a slow flush: only a burst waits for it', async () => {
    outbox = createRealtimeOutbox();
    // Each write takes 3 ms, so a paced event would wait 9 ms after the flush before it.
    const slow = fakeSocket({ sendMs: 3 });
    outbox.push(slow.recipient, outbox.encode({ n: 1 }));
    await nextTurn();
    outbox.push(slow.recipient, outbox.encode({ n: 2 }));
    await nextTurn();
    expect(slow.lines()).toEqual(['{"n":1}', '{"n":2}']);

    // Two events at once within the gap: they wait for it, and leave together.
    outbox.push(slow.recipient, outbox.encode({ n: 3 }));
    outbox.push(slow.recipient, outbox.encode({ n: 4 }));
    await nextTurn();
    expect(slow.frames).toHaveLength(2);
    while (slow.frames.length < 3) await nextTurn();
    expect(slow.lines()[2]).toBe('{"n":3}\n{"n":4}');
  });

  it('builds the frame of a broadcast once for all its sockets', async () => {
    outbox = createRealtimeOutbox();
    const sockets = [fakeSocket(), fakeSocket(), fakeSocket()];
    const events = [outbox.encode({ n: 1 }), outbox.encode({ n: 2 })];
    const everyone = new Set(sockets.map((s) => s.recipient));
    for (const event of events) outbox.broadcast(everyone, event);
    await nextTurn();
    const [first, ...others] = sockets.map((s) => s.wires[0]);
    for (const wire of others) expect(wire).toBe(first);
    expect(sockets[0].lines()).toEqual(['{"n":1}\n{"n":2}']);
  });

  it('compresses a large frame once for the sockets that negotiated permessage-deflate, and sends it plain to others', async () => {
    outbox = createRealtimeOutbox();
    const compressing = [fakeSocket({ deflate: true }), fakeSocket({ deflate: true })];
    const plain = fakeSocket();
    const everyone = new Set([...compressing, plain].map((s) => s.recipient));
    const text = 'the same words again and again '.repeat(40);
    outbox.broadcast(everyone, outbox.encode({ text }));
    outbox.broadcast(everyone, outbox.encode({ n: 2 }));
    await nextTurn();
    const expected = `${JSON.stringify({ text })}\n{"n":2}`;
    for (const socket of [...compressing, plain]) expect(socket.lines()).toEqual([expected]);
    const [wire, sameWire] = compressing.map((s) => s.wires[0]);
    expect(sameWire).toBe(wire);
    expect(wire[0] & 0x40).toBe(0x40);
    expect(wire.length).toBeLessThan(expected.length / 4);
    expect(plain.wires[0][0] & 0x40).toBe(0);

    // A small frame is not worth compressing.
    outbox.broadcast(everyone, outbox.encode({ n: 3 }));
    await nextTurn();
    expect(compressing[0].wires[1][0] & 0x40).toBe(0);
    expect(compressing[0].lines()[1]).toBe('{"n":3}');
  });

  it('leaves a frame to ws when ws holds sends back, so that it goes after them', async () => {
    outbox = createRealtimeOutbox();
    const busy = fakeSocket({ deflate: true, senderBusy: true });
    outbox.push(busy.recipient, outbox.encode({ text: 'x'.repeat(2000) }));
    await nextTurn();
    expect(busy.wires).toEqual([]);
    expect(busy.queued).toEqual([JSON.stringify({ text: 'x'.repeat(2000) })]);
  });

  it.each([
    [
      'pushed to each',
      (o: RealtimeOutbox, recipients: Recipient[]) => {
        for (const r of recipients) o.push(r, o.encode({ n: 1 }));
      },
    ],
    [
      'broadcast to all',
      (o: RealtimeOutbox, recipients: Recipient[]) => o.broadcast(new Set(recipients), o.encode({ n: 1 })),
    ],
  ])('skips closed sockets and drops a client whose unsent data piled up (%s)', async (_, queue) => {
    outbox = createRealtimeOutbox();
    const closed = fakeSocket({ open: false });
    const slow = fakeSocket({ bufferedAmount: MAX_BUFFERED_BYTES + 1 });
    const fine = fakeSocket();
    queue(outbox, [closed.recipient, slow.recipient, fine.recipient]);
    await nextTurn();
    expect(closed.frames).toHaveLength(0);
    expect(slow.frames).toHaveLength(0);
    expect(slow.closes).toEqual([CLOSE_UNRESPONSIVE]);
    expect(fine.lines()).toEqual(['{"n":1}']);
  });

  it('sends what is pushed after a flush in a later frame, and nothing after close()', async () => {
    outbox = createRealtimeOutbox();
    const a = fakeSocket();
    outbox.push(a.recipient, outbox.encode({ n: 1 }));
    await nextTurn();
    outbox.push(a.recipient, outbox.encode({ n: 2 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(a.lines()).toEqual(['{"n":1}', '{"n":2}']);

    outbox.push(a.recipient, outbox.encode({ n: 3 }));
    outbox.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(a.lines()).toEqual(['{"n":1}', '{"n":2}']);
  });
  it('broadcasts to a set of recipients, skipping the sockets of the user it excepts, with one shared frame', async () => {
    outbox = createRealtimeOutbox();
    const ann = fakeSocket({ userId: 'ann' });
    const annOnPhone = fakeSocket({ userId: 'ann' });
    const bob = fakeSocket({ userId: 'bob' });
    const everyone = new Set([ann.recipient, annOnPhone.recipient, bob.recipient]);
    outbox.broadcast(everyone, outbox.encode({ n: 1 }));
    outbox.broadcast(everyone, outbox.encode({ presence: 'ann' }), 'ann');
    outbox.broadcast(everyone, outbox.encode({ n: 2 }));
    await nextTurn();
    expect(ann.lines()).toEqual(['{"n":1}\n{"n":2}']);
    expect(annOnPhone.wires[0]).toBe(ann.wires[0]);
    expect(bob.lines()).toEqual(['{"n":1}\n{"presence":"ann"}\n{"n":2}']);
  });

  it('keeps the queued order for a socket that hears several audiences', async () => {
    outbox = createRealtimeOutbox();
    const both = fakeSocket();
    const onlyA = fakeSocket();
    const a = new Set([both.recipient, onlyA.recipient]);
    const b = new Set([both.recipient]);
    outbox.broadcast(a, outbox.encode({ a: 1 }));
    outbox.broadcast(b, outbox.encode({ b: 1 }));
    outbox.broadcast(a, outbox.encode({ a: 2 }));
    outbox.push(both.recipient, outbox.encode({ own: 1 }));
    outbox.broadcast(b, outbox.encode({ b: 2 }));
    await nextTurn();
    expect(both.lines()).toEqual(['{"a":1}\n{"b":1}\n{"a":2}\n{"own":1}\n{"b":2}']);
    expect(onlyA.lines()).toEqual(['{"a":1}\n{"a":2}']);
  });

  it('delivers what was queued to the audience of that moment, even if it changes before the flush', async () => {
    outbox = createRealtimeOutbox();
    const audience = createAudience<Recipient>();
    const early = fakeSocket({ userId: 'early' });
    const late = fakeSocket({ userId: 'late' });
    const leaving = fakeSocket({ userId: 'leaving' });
    audience.add(early.recipient, 'conv_1');
    audience.add(leaving.recipient, 'conv_1');
    outbox.broadcast(audience.of('conv_1'), outbox.encode({ n: 1 }));
    audience.add(late.recipient, 'conv_1');
    audience.remove(leaving.recipient, 'conv_1');
    outbox.broadcast(audience.of('conv_1'), outbox.encode({ n: 2 }));
    await nextTurn();
    expect(early.lines()).toEqual(['{"n":1}\n{"n":2}']);
    expect(late.lines()).toEqual(['{"n":2}']);
    expect(leaving.lines()).toEqual(['{"n":1}']);
    expect(audience.conversationsOf(leaving.recipient)).toEqual([]);
  });

  it("keeps a connection's conversations right whether it is in a few or many", () => {
    const audience = createAudience<string>();
    const ids = Array.from({ length: 40 }, (_, i) => `conv_${i}`);
    for (const id of [...ids, ...ids]) audience.add('socket', id);
    expect(audience.conversationsOf('socket').sort()).toEqual([...ids].sort());
    audience.remove('socket', 'conv_3');
    expect(audience.conversationsOf('socket')).not.toContain('conv_3');
    expect(audience.size('conv_3')).toBe(0);
    expect(audience.drop('socket')).toHaveLength(39);
    expect(audience.conversationsOf('socket')).toEqual([]);
    for (const id of ids) expect(audience.size(id)).toBe(0);

    audience.add('few', 'conv_a');
    audience.add('few', 'conv_b');
    audience.add('few', 'conv_a');
    audience.remove('few', 'conv_a');
    expect(audience.conversationsOf('few')).toEqual(['conv_b']);
  });
});
