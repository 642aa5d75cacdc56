import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { reconnectDelay } from '../../sdk/backoff.js';
import { ChatClient, type WebSocketConstructor, type WebSocketLike } from '../../sdk/index.js';
import { serverClient } from '../support/sdk-keys.js';
import { startTestServer } from '../support/server.js';
import { connectRealtime } from '../support/socket-client.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('reconnect delays', () => {
  const options = { initialDelayMs: 500, maxDelayMs: 30_000 };
  /** The shortest and the longest delay of an attempt: jitter at its least and at its most. */
  const bounds = (attempt: number, code: number) =>
    [0, 0.999999].map((random) => {
      vi.spyOn(Math, 'random').mockReturnValue(random);
      return reconnectDelay(attempt, options, code);
    });

  it('start at 5 s and grow to 60 s after 1013, jittered, where a dropped connection is retried within 0.5 s', () => {
    expect(bounds(0, 1006)).toEqual([250, 500]);
    expect(bounds(0, 1013)).toEqual([2_500, 5_000]);
    expect(bounds(1, 1013)).toEqual([5_000, 10_000]);
    expect(bounds(10, 1006)).toEqual([15_000, 30_000]);
    expect(bounds(10, 1013)).toEqual([30_000, 60_000]);
  });

  it('keep a client’s own schedule where it is longer', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999999);
    expect(reconnectDelay(0, { initialDelayMs: 8_000, maxDelayMs: 120_000 }, 1013)).toBe(8_000);
    expect(reconnectDelay(10, { initialDelayMs: 8_000, maxDelayMs: 120_000 }, 1013)).toBe(120_000);
  });
});

/** A WebSocket the test closes by hand: every one the client opens, in order. */
function fakeSockets() {
  const opened: (WebSocketLike & { url: string })[] = [];
  class FakeSocket implements WebSocketLike {
    readyState = 0;
    onopen: WebSocketLike['onopen'] = null;
    onmessage: WebSocketLike['onmessage'] = null;
    onclose: WebSocketLike['onclose'] = null;
    onerror: WebSocketLike['onerror'] = null;
    constructor(readonly url: string) {
      opened.push(this);
    }
    send(): void {}
    close(): void {}
  }
  return { opened, WebSocket: FakeSocket as WebSocketConstructor };
}

describe('ChatClient refused with 1013', () => {
  it('reconnects after the longer delay, again and again, and never sooner', async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const sockets = fakeSockets();
    const client = new ChatClient({ baseUrl: 'http://127.0.0.1:1', token: 'chat-token', WebSocket: sockets.WebSocket });
    const delays: number[] = [];
    client.on('reconnecting', ({ delayMs }) => delays.push(delayMs));
    const connecting = client.connect();
    const refusal = { code: 1013, reason: 'server at its limit of 40 WebSockets, retry later' };
    sockets.opened[0].onclose?.(refusal);
    await expect(connecting).rejects.toThrow('The realtime socket closed (1013 server at its limit');
    for (const delay of [2_500, 5_000, 10_000, 20_000, 30_000, 30_000]) {
      expect(delays.at(-1)).toBe(delay);
      const before = sockets.opened.length;
      vi.advanceTimersByTime(delay - 1);
      expect(sockets.opened).toHaveLength(before);
      vi.advanceTimersByTime(1);
      expect(sockets.opened).toHaveLength(before + 1);
      sockets.opened[before].onclose?.(refusal);
    }
    // A drop that is not a refusal is retried on the ordinary schedule, from where the attempts are.
    vi.advanceTimersByTime(30_000);
    sockets.opened.at(-1)?.onclose?.({ code: 1006, reason: '' });
    expect(delays).toHaveLength(8);
    expect(delays.at(-1)).toBe(15_000);
    client.close();
  });

  it('is told so by a server at its limit, and schedules its next try after the longer delay', async () => {
    const server = await startTestServer({ security: { webSockets: { max: 1 } } });
    try {
      const { server: backend } = await serverClient(server.url);
      const holder = connectRealtime(server.url, (await backend.chatTokens.create({ userId: 'first' })).token);
      await holder.next('connected');
      const { token } = await backend.chatTokens.create({ userId: 'second' });
      const client = new ChatClient({
        baseUrl: server.url,
        token,
        WebSocket: WebSocket as unknown as WebSocketConstructor,
        reconnect: { initialDelayMs: 20, maxDelayMs: 2_000 },
      });
      const reconnecting = new Promise<{ delayMs: number }>((resolve) => client.on('reconnecting', resolve));
      await expect(client.connect()).rejects.toThrow(
        'The realtime socket closed (1013 server at its limit of 1 WebSockets, retry later)',
      );
      expect((await reconnecting).delayMs).toBeGreaterThanOrEqual(2_500);
      client.close();
      holder.close();
    } finally {
      await server.dispose();
    }
  });
});
