import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRESENCE_BROADCAST_LIMIT } from '../../server/chat/realtime/hub.js';
import { type CatalogueEvent, createEventBus } from '../../server/index.js';
import { addMember, expectError, projectWithKeys, registerUser, sendMessage } from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { manualClock, startTestServer, type TestServer } from '../support/server.js';
import { connectRealtime, type SocketClient } from '../support/socket-client.js';

const clock = manualClock(Date.now());
const events = createEventBus();
const order: string[] = [];
events.on('chat', (e) => order.push(`chat:${e.type}`));
events.on('catalogue', (e: CatalogueEvent) => order.push(`catalogue:${e.type}`));
let server: TestServer;
let api: Client;
const open: SocketClient[] = [];
beforeAll(async () => {
  server = await startTestServer({ clock, events });
  api = client(server.url);
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
afterAll(() => server.dispose());

async function token(key: string, userId: string): Promise<string> {
  return (await api.post('/v1/chat/tokens', { token: key, body: { userId } })).body.token;
}

async function setup() {
  const ctx = await projectWithKeys(api);
  const key = ctx.keys.development;
  const conversation = (
    await api.post('/v1/chat/conversations', {
      token: key,
      body: { name: `room-${Math.random()}`, members: [{ userId: 'alice' }, { userId: 'bob' }] },
    })
  ).body;
  const connect = async (userId: string, env: 'development' | 'staging' = 'development') => {
    const c = connectRealtime(server.url, await token(ctx.keys[env], userId));
    open.push(c);
    await c.next('connected');
    return c;
  };
  const send = (senderId: string, text: string) =>
    api.post(`/v1/chat/conversations/${conversation.id}/messages`, { token: key, body: { senderId, text } });
  return { ...ctx, key, conversation, connect, send };
}

describe('the realtime socket', () => {
  it('delivers new messages to connected members only, never across environments', async () => {
    const { conversation, connect, send } = await setup();
    const alice = await connect('alice');
    const carol = await connect('carol');
    const aliceInStaging = await connect('alice', 'staging');
    order.length = 0;
    const sent = (await send('bob', 'hi alice')).body;
    const pushed = await alice.next('message.created');
    expect(pushed).toEqual({
      type: 'message.created',
      conversationId: conversation.id,
      data: {
        message: expect.objectContaining({
          id: sent.id,
          roomId: conversation.id,
          senderId: 'bob',
          text: 'hi alice',
          cursor: expect.any(String),
        }),
      },
    });
    // The realtime fan-out happens before the webhook event is queued (spec 6.3).
    expect(order.filter((e) => e.endsWith('message.created'))).toEqual([
      'chat:message.created',
      'catalogue:message.created',
    ]);
    carol.send({ type: 'ping' });
    await carol.next('pong');
    aliceInStaging.send({ type: 'ping' });
    await aliceInStaging.next('pong');
    expect(carol.received.filter((m) => m.type === 'message.created')).toEqual([]);
    expect(aliceInStaging.received.filter((m) => m.type === 'message.created')).toEqual([]);
  });

  it('lists the user’s conversations on connect, and catches up from a pushed cursor', async () => {
    const { conversation, connect, send, key } = await setup();
    const alice = await connect('alice');
    expect(alice.received[0].conversationIds).toEqual([conversation.id]);
    await send('bob', 'first');
    const first = await alice.next('message.created');
    alice.close();
    await send('bob', 'missed 1');
    await send('bob', 'missed 2');
    const caughtUp = await api.get(
      `/v1/chat/conversations/${conversation.id}/messages?after=${encodeURIComponent(first.data.message.cursor)}`,
      { token: key },
    );
    expect(caughtUp.body.data.map((m: { text: string }) => m.text)).toEqual(['missed 1', 'missed 2']);
  });

  it('pushes edits, deletions, reactions, read updates and member changes', async () => {
    const { conversation, connect, send, key } = await setup();
    const bob = await connect('bob');
    const alice = await connect('alice');
    const message = (await send('alice', 'hello')).body;
    await api.patch(`/v1/chat/messages/${message.id}`, { token: key, body: { text: 'hello!', userId: 'alice' } });
    expect((await bob.next('message.updated')).data.message.text).toBe('hello!');
    await api.post(`/v1/chat/messages/${message.id}/reactions`, { token: key, body: { emoji: '🎉', userId: 'alice' } });
    expect((await bob.next('reaction.added')).data.reaction).toEqual({
      messageId: message.id,
      roomId: conversation.id,
      userId: 'alice',
      emoji: '🎉',
    });
    bob.send({ type: 'read', messageId: message.id });
    expect((await alice.next('read.updated')).data.read).toMatchObject({
      userId: 'bob',
      lastReadMessageId: message.id,
    });
    await api.delete(`/v1/chat/messages/${message.id}`, { token: key });
    expect((await bob.next('message.deleted')).data.message).toMatchObject({
      id: message.id,
      text: null,
      deleted: true,
    });
    await api.post(`/v1/chat/conversations/${conversation.id}/members`, { token: key, body: { userId: 'dave' } });
    expect((await alice.next('member.added')).data.member).toMatchObject({ userId: 'dave', role: 'MEMBER' });
    await api.delete(`/v1/chat/conversations/${conversation.id}/members/bob`, { token: key });
    expect((await bob.next('member.removed')).data.member).toMatchObject({ userId: 'bob' });
    await send('alice', 'after bob left');
    await alice.next('message.created');
    expect(bob.received.filter((m) => m.type === 'message.created')).toHaveLength(1);
  });

  it('follows membership changes of a connected user: new conversations, joining, being removed', async () => {
    const { conversation, connect, send, key } = await setup();
    const erin = await connect('erin');
    expect(erin.received[0].conversationIds).toEqual([]);

    // Added to an existing conversation: told so, then gets its messages.
    await api.post(`/v1/chat/conversations/${conversation.id}/members`, { token: key, body: { userId: 'erin' } });
    expect((await erin.next('member.added')).data.member).toMatchObject({ userId: 'erin' });
    await send('alice', 'welcome erin');
    expect((await erin.next('message.created')).data.message.text).toBe('welcome erin');

    // A new conversation with erin in it: created, then its messages.
    const other = (
      await api.post('/v1/chat/conversations', {
        token: key,
        body: { name: `other-${Math.random()}`, members: [{ userId: 'erin' }] },
      })
    ).body;
    expect((await erin.next('conversation.created')).conversationId).toBe(other.id);
    await sendMessage(api, key, other.id, { senderId: 'frank', text: 'in the other one' });
    expect((await erin.next('message.created')).conversationId).toBe(other.id);

    // Removed: told so, then nothing more from that conversation, still everything from the other.
    await api.delete(`/v1/chat/conversations/${conversation.id}/members/erin`, { token: key });
    expect((await erin.next('member.removed')).data.member).toMatchObject({ userId: 'erin' });
    await send('alice', 'erin is gone');
    await sendMessage(api, key, other.id, { senderId: 'frank', text: 'still here' });
    expect((await erin.next('message.created')).data.message.text).toBe('still here');
    expect(erin.received.filter((m) => m.type === 'message.created').map((m) => m.data.message.text)).toEqual([
      'welcome erin',
      'in the other one',
      'still here',
    ]);
  });

  it('tracks presence from connections', async () => {
    const { conversation, connect, key } = await setup();
    const bob = await connect('bob');
    const alice = await connect('alice');
    expect((await bob.next('presence.changed')).data).toMatchObject({ userId: 'alice', online: true });
    const presence = await api.get(`/v1/chat/conversations/${conversation.id}/presence`, { token: key });
    expect(presence.body.data).toEqual([
      { userId: 'alice', online: true, connections: 1 },
      { userId: 'bob', online: true, connections: 1 },
    ]);
    alice.close();
    expect((await bob.next('presence.changed')).data).toMatchObject({ userId: 'alice', online: false });
  });

  it('sends presence in a conversation larger than the broadcast limit only to the sockets that watch it', async () => {
    const { key, connect, send } = await setup();
    const crowd = Array.from({ length: PRESENCE_BROADCAST_LIMIT + 1 }, (_, i) => `fan-${i}`);
    const conversation = (
      await api.post('/v1/chat/conversations', {
        token: key,
        body: { name: `stage-${Math.random()}`, members: crowd.slice(0, 100).map((userId) => ({ userId })) },
      })
    ).body;
    for (const userId of [...crowd.slice(100), 'wendy', 'newbie'])
      await api.post(`/v1/chat/conversations/${conversation.id}/members`, { token: key, body: { userId } });
    const fans = await Promise.all(crowd.map((userId) => connect(userId)));
    const wendy = await connect('wendy');

    wendy.send({ type: 'presence.watch', conversationId: conversation.id });
    const snapshot = await wendy.next('presence.snapshot');
    expect(snapshot.conversationId).toBe(conversation.id);
    expect([...snapshot.data.online].sort()).toEqual([...crowd].sort());

    /** Posts to the big conversation; resolves once `watcher` has it, so that whatever was queued before is in. */
    const marker = async (text: string, watcher: SocketClient) => {
      await api.post(`/v1/chat/conversations/${conversation.id}/messages`, {
        token: key,
        body: { senderId: 'fan-0', text },
      });
      for (let m = await watcher.next('message.created'); m.data.message.text !== text; )
        m = await watcher.next('message.created');
    };
    // While the crowd connected, the first of them heard each other (the conversation was small then): all of it.
    await marker('before newbie came', fans[1]);
    const heardBefore = fans[1].received.length;
    const newbie = await connect('newbie');
    expect((await wendy.next('presence.changed')).data).toMatchObject({ userId: 'newbie', online: true });
    await marker('after newbie came', fans[1]);
    expect(fans[1].received.slice(heardBefore).filter((m) => m.type === 'presence.changed')).toEqual([]);

    newbie.close();
    expect((await wendy.next('presence.changed')).data).toMatchObject({ userId: 'newbie', online: false });
    wendy.send({ type: 'presence.unwatch', conversationId: conversation.id });
    await connect('newbie');
    await marker('after newbie came back', wendy);
    expect(wendy.received.filter((m) => m.type === 'presence.changed')).toHaveLength(2);
    await send('bob', 'the small conversation still hears presence');
  });

  it('refuses to watch the presence of a conversation the user is not in', async () => {
    const { connect } = await setup();
    const carol = await connect('carol');
    carol.send({ type: 'presence.watch', conversationId: 'conv_not_mine' });
    expect(await carol.next('error')).toMatchObject({ code: 'SERVICE_CONVERSATION_NOT_FOUND' });
  });

  it('handles the frames of one socket in the order they arrived, also those that wait for the database', async () => {
    const { conversation, connect } = await setup();
    const alice = await connect('alice');
    alice.send({ type: 'presence.watch', conversationId: 'conv_not_mine' });
    alice.send({ type: 'presence.watch', conversationId: conversation.id });
    alice.send({ type: 'ping' });
    await alice.next('pong');
    expect(alice.received.slice(1).map((m) => m.type)).toEqual(['error', 'presence.snapshot', 'pong']);
  });

  it('shows typing, which expires a few seconds after the last renewal', async () => {
    const { conversation, connect, key } = await setup();
    const bob = await connect('bob');
    const alice = await connect('alice');
    alice.send({ type: 'typing.start', conversationId: conversation.id });
    expect((await bob.next('typing.started')).data).toEqual({ userId: 'alice' });
    const typing = await api.get(`/v1/chat/conversations/${conversation.id}/typing`, { token: key });
    expect(typing.body.data).toEqual([{ userId: 'alice', expiresAt: expect.any(String) }]);
    clock.advance(6_000);
    expect((await bob.next('typing.stopped', 3_000)).data).toEqual({ userId: 'alice' });
    expect((await api.get(`/v1/chat/conversations/${conversation.id}/typing`, { token: key })).body.data).toEqual([]);
    alice.send({ type: 'typing.start', conversationId: 'conv_not_mine' });
    expect(await alice.next('error')).toMatchObject({ code: 'SERVICE_CONVERSATION_NOT_FOUND' });
  });

  it('compresses large frames for clients that negotiated permessage-deflate, with the same messages in the same order', async () => {
    const { key, send } = await setup();
    const aliceToken = await token(key, 'alice');
    const compressed = connectRealtime(server.url, aliceToken);
    const plain = connectRealtime(server.url, aliceToken, { perMessageDeflate: false });
    open.push(compressed, plain);
    const upgrades = [compressed, plain].map(
      (c) => new Promise<IncomingMessage>((resolve) => c.socket.once('upgrade', resolve)),
    );
    const [compressedWire, plainWire] = (await Promise.all(upgrades)).map((res) => ({
      extensions: res.headers['sec-websocket-extensions'],
      bytesRead: () => res.socket.bytesRead,
    }));
    expect(compressedWire.extensions).toMatch(/^permessage-deflate;.*server_no_context_takeover/);
    expect(plainWire.extensions).toBeUndefined();
    await Promise.all([compressed.next('connected'), plain.next('connected')]);

    const before = [compressedWire.bytesRead(), plainWire.bytesRead()];
    const text = 'Every member of this conversation gets the same long message. '.repeat(50);
    await send('bob', text);
    const [viaCompressed, viaPlain] = await Promise.all([
      compressed.next('message.created'),
      plain.next('message.created'),
    ]);
    expect(viaCompressed.data.message.text).toBe(text);
    expect(viaCompressed).toEqual(viaPlain);
    const compressedBytes = compressedWire.bytesRead() - before[0];
    const plainBytes = plainWire.bytesRead() - before[1];
    expect(plainBytes).toBeGreaterThan(text.length);
    expect(compressedBytes).toBeLessThan(plainBytes / 4);

    // What a client compresses reaches the server too (`ws` compresses its messages from 1 KB on): this one is read,
    // and refused for its too long id.
    compressed.send({ type: 'presence.watch', conversationId: `conv_${'x'.repeat(2000)}` });
    expect(await compressed.next('error')).toMatchObject({
      code: 'invalid_message',
      message: expect.stringContaining('conversationId'),
    });

    // A burst: frames of several events each, compressed or not by their size, all in the order they were sent.
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => send('bob', `${i} `.repeat((i + 1) * 10))));
    const ids = async (c: SocketClient) => {
      const received: string[] = [];
      for (let i = 0; i < burst.length; i++) received.push((await c.next('message.created')).data.message.id);
      return received;
    };
    expect(burst.map((r) => r.status)).toEqual(burst.map(() => 201));
    const [compressedIds, plainIds] = await Promise.all([ids(compressed), ids(plain)]);
    expect(compressedIds).toEqual(plainIds);
    expect([...compressedIds].sort()).toEqual(burst.map((r) => r.body.id).sort());
  });

  it('refuses a missing or invalid chat token with a close reason', async () => {
    expect(await connectRealtime(server.url).closed).toEqual({ code: 4400, reason: 'missing access_token' });
    expect(await connectRealtime(server.url, 'nope').closed).toEqual({
      code: 4401,
      reason: 'invalid or expired chat token',
    });
  });
});

describe('dashboard chat inspection', () => {
  it('shows counts, conversations, connections and presence, never message content', async () => {
    const { owner, project, conversation, connect, send } = await setup();
    await connect('alice');
    await send('alice', 'top secret text');
    const base = `/v1/projects/${project.id}/chat`;
    const overview = await api.get(`${base}/overview`, { token: owner.token });
    expect(overview.body).toEqual({
      environment: 'development',
      conversations: 1,
      members: 2,
      messages: 1,
      connections: 1,
      onlineUsers: 1,
    });
    const conversations = await api.get(`${base}/conversations`, { token: owner.token });
    expect(conversations.body.data).toEqual([
      {
        id: conversation.id,
        name: conversation.name,
        memberCount: 2,
        messageCount: 1,
        lastMessageAt: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);
    const connections = await api.get(`${base}/connections`, { token: owner.token });
    expect(connections.body.data).toEqual([
      { id: expect.stringMatching(/^conn_/), userId: 'alice', connectedAt: expect.any(String) },
    ]);
    const presence = await api.get(`${base}/conversations/${conversation.id}/presence`, { token: owner.token });
    expect(presence.body.data.find((p: { userId: string }) => p.userId === 'alice').online).toBe(true);
    for (const res of [overview, conversations, connections, presence])
      expect(JSON.stringify(res.body)).not.toContain('top secret');
    expect((await api.get(`${base}/overview?environment=staging`, { token: owner.token })).body.conversations).toBe(0);

    const billing = await registerUser(api);
    await addMember(api, project.id, owner, billing, 'BILLING');
    expectError(await api.get(`${base}/conversations`, { token: billing.token }), 403, 'SERVICE_PERMISSION_DENIED');
    expectError(await api.get(`${base}/connections`, { token: billing.token }), 403, 'SERVICE_PERMISSION_DENIED');
  });
});
