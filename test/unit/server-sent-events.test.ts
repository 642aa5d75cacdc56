import { describe, expect, it } from 'vitest';
import { readServerSentEvents, type ServerSentEvent } from '../../sdk/server-sent-events.js';

/** A body that arrives in these chunks, as a network may split it. */
function body(...chunks: string[]): ReadableStream<Uint8Array> {
  const bytes = chunks.map((c) => new TextEncoder().encode(c));
  return new ReadableStream({
    pull(controller) {
      const next = bytes.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

async function read(stream: ReadableStream<Uint8Array>): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(stream)) events.push(event);
  return events;
}

describe('readServerSentEvents', () => {
  it('dispatches on a blank line, joins data lines, and skips comments', async () => {
    const events = await read(body(': heartbeat\n\nevent: room.created\ndata: {"a":1}\n\ndata: one\ndata:two\n\n'));
    expect(events).toEqual([
      { event: 'room.created', data: '{"a":1}' },
      { event: 'message', data: 'one\ntwo' },
    ]);
  });

  it('reads events split anywhere across chunks, with LF, CRLF or CR line ends', async () => {
    const events = await read(body('event: a\r', '\ndata: x\r\n\r', '\nevent: b\rdata: é', '\r\r', 'data: y\n'));
    // The last record has no blank line after it: incomplete at the end of the stream, so not dispatched.
    expect(events).toEqual([
      { event: 'a', data: 'x' },
      { event: 'b', data: 'é' },
    ]);
  });

  it('ignores a record without data and fields it does not know', async () => {
    expect(await read(body('event: lonely\n\nid: 7\nretry: 10\nfoo\ndata: z\n\n'))).toEqual([
      { event: 'message', data: 'z' },
    ]);
  });
});
