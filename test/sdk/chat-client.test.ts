import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  ChatClient,
  type ChatEvent,
  type ServerClient,
  type WebSocketConstructor,
  type WebSocketLike,
} from '../../sdk/index.js';
import { serverClient } from '../support/sdk-keys.js';
import { manualClock } from '../support/server.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

async function chatClient(
  server: ServerClient,
  userId: string,
  options: {
    onSocket?: (socket: WebSocketLike) => void;
    initialDelayMs?: number;
    baseUrl?: string;
    fetch?: typeof fetch;
  } = {},
): Promise<ChatClient> {
  const { token } = await server.chatTokens.create({ userId });
  return new ChatClient({
    baseUrl: options.baseUrl ?? t.server.url,
    token,
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    reconnect: { initialDelayMs: options.initialDelayMs ?? 20, maxDelayMs: 2000 },
    onSocket: options.onSocket,
    fetch: options.fetch,
  });
}

function waitFor<T>(check: () => T | undefined, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = check();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error('timed out'));
      setTimeout(tick, 10);
    };
    tick();
  });
}

describe('ChatClient: REST as the token’s user', () => {
  it('creates a conversation (the caller becomes ADMIN), sends, lists and reads', async () => {
    const { server } = await serverClient(t.server.url);
    const alice = await chatClient(server, 'alice');
    const conv = await alice.conversations.create({ name: 'mine', members: [{ userId: 'bob' }] });
    expect((await alice.members.list(conv.id)).data).toContainEqual(
      expect.objectContaining({ userId: 'alice', role: 'ADMIN' }),
    );
    const sent = await alice.messages.send(conv.id, { text: 'hi' });
    expect(sent.senderId).toBe('alice');
    expect((await alice.conversations.list()).data.map((c) => c.id)).toEqual([conv.id]);
    await expect(alice.messages.send(conv.id, { text: 'x', senderId: 'bob' })).rejects.toMatchObject({ status: 400 });
    const bob = await chatClient(server, 'bob');
    expect((await bob.messages.markRead(sent.id)).lastReadMessageId).toBe(sent.id);
  });
});

describe('ChatClient: realtime', () => {
  it('gets typed events, sends typing and read over the socket, and closes for good', async () => {
    const { server } = await serverClient(t.server.url);
    const conv = await server.conversations.create({ name: 'live', createdBy: 'alice', members: [{ userId: 'bob' }] });
    const alice = await chatClient(server, 'alice');
    const bob = await chatClient(server, 'bob');
    const connected = await bob.connect();
    expect(connected).toMatchObject({ userId: 'bob', conversationIds: [conv.id], reconnected: false });
    await alice.connect();

    const created: ChatEvent<'message.created'>[] = [];
    const typing: string[] = [];
    bob.on('message.created', (e) => created.push(e));
    bob.on('typing.started', (e) => typing.push(e.data.userId));
    const sent = await alice.messages.send(conv.id, { text: 'hello bob' });
    await waitFor(() => created[0]);
    expect(created[0]).toMatchObject({
      conversationId: conv.id,
      data: { message: { id: sent.id, text: 'hello bob' } },
    });
    expect(typeof created[0].data.message.cursor).toBe('string');

    expect(alice.typing(conv.id)).toBe(true);
    await waitFor(() => typing[0]);
    expect(typing).toEqual(['alice']);

    expect(bob.markRead(sent.id)).toBe(true);
    let state: Awaited<ReturnType<typeof bob.conversations.readState>> | undefined;
    for (let i = 0; i < 100 && state?.lastReadMessageId !== sent.id; i++) {
      state = await bob.conversations.readState(conv.id);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(state?.lastReadMessageId).toBe(sent.id);
    alice.close();
    bob.close();
    expect(bob.connected).toBe(false);
    expect(bob.markRead(sent.id)).toBe(false);
  }, 20_000);

  it('reconnects after a dropped connection and delivers the missed messages exactly once, in order', async () => {
    const { server } = await serverClient(t.server.url);
    const seen = await server.conversations.create({ name: 'seen', createdBy: 'alice', members: [{ userId: 'bob' }] });
    const quiet = await server.conversations.create({
      name: 'quiet',
      createdBy: 'alice',
      members: [{ userId: 'bob' }],
    });
    let socket: WebSocketLike | undefined;
    // The first retry comes 250–500 ms after the drop: long after the missed messages are sent.
    const bob = await chatClient(server, 'bob', { onSocket: (s) => (socket = s), initialDelayMs: 500 });
    const events: { id: string; text: string | null; caughtUp: boolean; conversationId: string }[] = [];
    const lifecycle: string[] = [];
    bob.on('message.created', (e) =>
      events.push({
        id: e.data.message.id,
        text: e.data.message.text,
        caughtUp: !!e.caughtUp,
        conversationId: e.conversationId,
      }),
    );
    bob.on('disconnected', () => lifecycle.push('disconnected'));
    bob.on('reconnecting', (e) => lifecycle.push(`reconnecting ${e.attempt}`));
    bob.on('connected', (e) => lifecycle.push(e.reconnected ? 'reconnected' : 'connected'));
    await bob.connect();

    await server.messages.send(seen.id, { text: 'm1', senderId: 'alice' });
    await waitFor(() => events[0]);

    // Drop the connection, and keep it down while messages are sent.
    const dropped = new Promise<void>((resolve) => {
      const off = bob.on('disconnected', () => {
        off();
        resolve();
      });
    });
    const reconnected = new Promise<void>((resolve) => {
      const off = bob.on('connected', (e) => {
        if (e.reconnected) {
          off();
          resolve();
        }
      });
    });
    (socket as unknown as WebSocket).terminate();
    await dropped;
    await server.messages.send(seen.id, { text: 'm2', senderId: 'alice' });
    await server.messages.send(seen.id, { text: 'm3', senderId: 'alice' });
    await server.messages.send(quiet.id, { text: 'q1', senderId: 'alice' });
    await reconnected;
    await server.messages.send(seen.id, { text: 'm4', senderId: 'alice' });
    await waitFor(() => events.find((e) => e.text === 'm4'));
    await new Promise((r) => setTimeout(r, 100));

    const texts = events.map((e) => e.text);
    expect(texts.filter((x) => x === 'm1' || x === 'm2' || x === 'm3' || x === 'm4')).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(texts.filter((x) => x === 'q1')).toEqual(['q1']);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(
      events
        .filter((e) => e.caughtUp)
        .map((e) => e.text)
        .sort(),
    ).toEqual(['m2', 'm3', 'q1']);
    expect(lifecycle[0]).toBe('connected');
    expect(lifecycle).toContain('disconnected');
    expect(lifecycle).toContain('reconnecting 1');
    expect(lifecycle).toContain('reconnected');
    bob.close();
  }, 20_000);

  it('rejects connect with an invalid token and does not retry', async () => {
    const client = new ChatClient({
      baseUrl: t.server.url,
      token: 'not-a-token',
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
    const retries: number[] = [];
    client.on('reconnecting', (e) => retries.push(e.attempt));
    await expect(client.connect()).rejects.toThrow(/4401/);
    await new Promise((r) => setTimeout(r, 100));
    expect(retries).toEqual([]);
  });
});

describe('ChatClient: catch-up by the server’s cursors only', () => {
  const HOUR = 3_600_000;
  // The server's clock runs an hour ahead of this client's (Date.now()) until a test moves it.
  const clock = manualClock(Date.now() + HOUR);
  const skewed = useTestServer({ clock });

  /** A ChatClient for bob whose socket the test can drop, recording what each catch-up listing returned. */
  async function droppableBob(server: ServerClient) {
    let socket: WebSocketLike | undefined;
    const listings: { after: string | null; ids: string[] }[] = [];
    const bob = await chatClient(server, 'bob', {
      baseUrl: skewed.server.url,
      onSocket: (s) => (socket = s),
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        const url = new URL(String(input));
        if (url.pathname.endsWith('/messages')) {
          const page = (await res.clone().json()) as { data: { id: string }[] };
          listings.push({ after: url.searchParams.get('after'), ids: page.data.map((m) => m.id) });
        }
        return res;
      },
    });
    const created: { id: string; text: string | null; caughtUp: boolean }[] = [];
    bob.on('message.created', (e) =>
      created.push({ id: e.data.message.id, text: e.data.message.text, caughtUp: !!e.caughtUp }),
    );
    /** Drops the socket, runs `whileDown`, and resolves once the client is back and caught up. */
    async function dropAndReconnect(whileDown: () => Promise<unknown> = async () => {}) {
      const dropped = new Promise<void>((resolve) => {
        const off = bob.on('disconnected', () => {
          off();
          resolve();
        });
      });
      const back = new Promise<void>((resolve) => {
        const off = bob.on('connected', (e) => {
          if (!e.reconnected) return;
          off();
          resolve();
        });
      });
      (socket as unknown as WebSocket).terminate();
      await dropped;
      await whileDown();
      await back;
    }
    return { bob, listings, created, dropAndReconnect };
  }

  it('replays nothing from before the first connection when the server’s clock is ahead', async () => {
    const { server } = await serverClient(skewed.server.url);
    const conv = await server.conversations.create({
      name: 'history',
      createdBy: 'alice',
      members: [{ userId: 'bob' }],
    });
    await server.messages.send(conv.id, { text: 'before bob connected', senderId: 'alice' });
    const { bob, created, dropAndReconnect } = await droppableBob(server);
    await bob.connect();
    await dropAndReconnect(() => server.messages.send(conv.id, { text: 'while down', senderId: 'alice' }));
    expect(created.map((m) => [m.text, m.caughtUp])).toEqual([['while down', true]]);
    bob.close();
  }, 20_000);

  it('misses nothing sent while down when the server’s clock is behind, and moves its cursors past what it replayed', async () => {
    clock.advance(-2 * HOUR); // now an hour behind this client
    const { server } = await serverClient(skewed.server.url);
    const live = await server.conversations.create({ name: 'live', createdBy: 'alice', members: [{ userId: 'bob' }] });
    const quiet = await server.conversations.create({
      name: 'quiet',
      createdBy: 'alice',
      members: [{ userId: 'bob' }],
    });
    const { bob, created, listings, dropAndReconnect } = await droppableBob(server);
    await bob.connect();
    await server.messages.send(live.id, { text: 'l1', senderId: 'alice' });
    await waitFor(() => created[0]);

    await dropAndReconnect(async () => {
      await server.messages.send(live.id, { text: 'l2', senderId: 'alice' });
      await server.messages.send(quiet.id, { text: 'q1', senderId: 'alice' });
    });
    expect(created.map((m) => [m.text, m.caughtUp])).toEqual([
      ['l1', false],
      ['l2', true],
      ['q1', true],
    ]);

    // A second reconnect lists from past every replayed message: nothing comes back twice.
    listings.length = 0;
    await dropAndReconnect();
    expect(listings).toHaveLength(2);
    expect(listings.every((l) => l.after !== null && l.ids.length === 0)).toBe(true);
    expect(created).toHaveLength(3);
    bob.close();
  }, 20_000);
});

describe('ChatClient: removed from a conversation while away', () => {
  it('stops catching up with it, quietly, instead of failing on every reconnect', async () => {
    const { server } = await serverClient(t.server.url);
    const left = await server.conversations.create({ name: 'left', createdBy: 'alice', members: [{ userId: 'bob' }] });
    const kept = await server.conversations.create({ name: 'kept', createdBy: 'alice', members: [{ userId: 'bob' }] });
    let socket: WebSocketLike | undefined;
    const listed: string[] = [];
    const bob = await chatClient(server, 'bob', {
      onSocket: (s) => (socket = s),
      fetch: async (input, init) => {
        const url = new URL(String(input));
        if (url.pathname.endsWith('/messages')) listed.push(url.pathname.split('/')[4]);
        return fetch(input, init);
      },
    });
    const errors: string[] = [];
    bob.on('error', (e) => errors.push(e.code));
    const received: string[] = [];
    bob.on('message.created', (e) => received.push(e.data.message.text ?? ''));
    await bob.connect();
    await server.messages.send(left.id, { text: 'in left', senderId: 'alice' });
    await server.messages.send(kept.id, { text: 'in kept', senderId: 'alice' });
    await waitFor(() => (received.length === 2 ? true : undefined));

    async function dropAndReconnect(whileDown: () => Promise<unknown> = async () => {}) {
      const back = new Promise<void>((resolve) => {
        const off = bob.on('connected', (e) => {
          if (!e.reconnected) return;
          off();
          resolve();
        });
      });
      (socket as unknown as WebSocket).terminate();
      await whileDown();
      await back;
    }
    await dropAndReconnect(() => server.members.remove(left.id, 'bob'));
    await dropAndReconnect();
    expect(errors).toEqual([]);
    // The first reconnect asked once for the conversation bob had left; the second no more.
    expect(listed.filter((id) => id === left.id)).toHaveLength(1);
    expect(listed.filter((id) => id === kept.id)).toHaveLength(2);
    bob.close();
  }, 20_000);
});

describe('ChatClient: frames', () => {
  it('watches presence: a snapshot, then each change, and again on every new socket', async () => {
    const { server } = await serverClient(t.server.url);
    const conv = await server.conversations.create({
      name: 'watched',
      createdBy: 'alice',
      members: [{ userId: 'bob' }],
    });
    let socket: WebSocketLike | undefined;
    const bob = await chatClient(server, 'bob', { onSocket: (s) => (socket = s) });
    const snapshots: string[][] = [];
    const changes: string[] = [];
    bob.on('presence.snapshot', (e) => snapshots.push(e.data.online));
    bob.on('presence.changed', (e) => changes.push(`${e.data.userId} ${e.data.online ? 'online' : 'offline'}`));
    bob.watchPresence(conv.id);
    await bob.connect();
    expect(await waitFor(() => snapshots[0])).toEqual([]);

    const alice = await chatClient(server, 'alice');
    await alice.connect();
    await waitFor(() => changes[0]);
    // A new socket watches nothing: the client asks again, and gets who is online now.
    (socket as unknown as WebSocket).terminate();
    expect(await waitFor(() => snapshots[1])).toEqual(['alice']);
    expect(changes).toEqual(['alice online']);
    alice.close();
    bob.close();
  });

  it('reads every message of a frame that carries several, one per line', async () => {
    const message = (id: string) =>
      JSON.stringify({
        type: 'message.created',
        conversationId: 'conv_1',
        data: { message: { id, roomId: 'conv_1', senderId: 'bob', text: id, cursor: `c-${id}` } },
      });
    // The server coalesces a burst: here the welcome and two messages arrive in one frame.
    class OneFrameSocket implements WebSocketLike {
      readyState = 1;
      onopen: WebSocketLike['onopen'] = null;
      onmessage: WebSocketLike['onmessage'] = null;
      onclose: WebSocketLike['onclose'] = null;
      onerror: WebSocketLike['onerror'] = null;
      constructor() {
        const welcome = JSON.stringify({
          type: 'connected',
          connectionId: 'conn_1',
          userId: 'alice',
          conversationIds: [],
        });
        setTimeout(() => this.onmessage?.({ data: [welcome, message('msg_1'), message('msg_2')].join('\n') }));
      }
      send() {}
      close() {}
    }
    const client = new ChatClient({ baseUrl: 'http://127.0.0.1:9', token: 'chat-token', WebSocket: OneFrameSocket });
    const received: string[] = [];
    client.on('message.created', (e) => received.push(e.data.message.id));
    await expect(client.connect()).resolves.toMatchObject({ connectionId: 'conn_1', userId: 'alice' });
    await waitFor(() => (received.length === 2 ? received : undefined));
    expect(received).toEqual(['msg_1', 'msg_2']);
    client.close();
  });
});
