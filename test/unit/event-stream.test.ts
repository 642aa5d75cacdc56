import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type EventStreamOptions, type EventStreamSink, serveEventStream } from '../../server/http/event-stream.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A server whose only answer is an event stream of `{n}` records, with its sink and its subscription. */
async function streamServer(options: Partial<EventStreamOptions<{ n: number }>> = {}) {
  const state = { sink: undefined as EventStreamSink<{ n: number }> | undefined, unsubscribed: false };
  const server = createServer((_req, res) =>
    serveEventStream<{ n: number }>(res, {
      nameOf: (e) => `tick.${e.n}`,
      subscribe: (sink) => {
        state.sink = sink;
        return () => {
          state.unsubscribed = true;
        };
      },
      heartbeatMs: 20,
      ...options,
    }),
  );
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return { state, res };
}

/** Reads the body until `done` accepts what arrived, or the stream ends. */
async function readUntil(res: Response, done: (text: string) => boolean): Promise<{ text: string; ended: boolean }> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done: ended, value } = await reader.read();
    if (ended) return { text, ended: true };
    text += decoder.decode(value, { stream: true });
    if (done(text)) {
      await reader.cancel();
      return { text, ended: false };
    }
  }
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('serveEventStream', () => {
  it('answers text/event-stream with one record per event and heartbeat comments', async () => {
    const { state, res } = await streamServer();
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    state.sink?.send({ n: 1 });
    const { text } = await readUntil(res, (t) => t.includes(': heartbeat\n\n'));
    expect(text.startsWith('event: tick.1\ndata: {"n":1}\n\n')).toBe(true);
  });

  it('ends the response when the sink is ended', async () => {
    const { state, res } = await streamServer();
    state.sink?.send({ n: 2 });
    state.sink?.end();
    state.sink?.send({ n: 3 });
    expect(await readUntil(res, () => false)).toEqual({ text: 'event: tick.2\ndata: {"n":2}\n\n', ended: true });
    await until(() => state.unsubscribed);
  });

  it('unsubscribes when the client goes away', async () => {
    const { state, res } = await streamServer();
    await res.body?.cancel();
    await until(() => state.unsubscribed);
  });

  it('ends at the first heartbeat that finds the caller no longer allowed', async () => {
    let allowed = true;
    const { res, state } = await streamServer({ stillAllowed: async () => allowed });
    const first = readUntil(res, () => false);
    await new Promise((r) => setTimeout(r, 60));
    expect(state.unsubscribed).toBe(false);
    allowed = false;
    expect((await first).ended).toBe(true);
    expect((await first).text).toContain(': heartbeat');
    await until(() => state.unsubscribed);
  });

  it('writes nothing when subscribing throws, so that the error can still be answered', async () => {
    const server = createServer((_req, res) => {
      try {
        serveEventStream(res, {
          nameOf: () => 'x',
          subscribe: () => {
            throw new Error('closing');
          },
        });
      } catch {
        res.writeHead(503).end('unavailable');
      }
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    expect(res.status).toBe(503);
    expect(await res.text()).toBe('unavailable');
  });
});
