import { describe, expect, it } from 'vitest';
import { createConversation, expectError, jwtClaims, mintChatToken, projectWithKeys } from '../support/factories.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

/** A project, a conversation created by alice (ADMIN) with bob (MEMBER), and their chat tokens. */
async function chatSetup(environment: 'development' | 'staging' | 'production' = 'development') {
  const { keys, project, owner } = await projectWithKeys(t.api);
  const key = keys[environment];
  const alice = await mintChatToken(t.api, key, 'alice');
  const bob = await mintChatToken(t.api, key, 'bob');
  const carol = await mintChatToken(t.api, key, 'carol');
  const conversation = await createConversation(t.api, alice, { members: ['bob'] });
  return { owner, project, keys, key, alice, bob, carol, conversation };
}

const send = (token: string, conversationId: string, body: Record<string, unknown>) =>
  t.api.post(`/v1/chat/conversations/${conversationId}/messages`, { token, body });

describe('chat tokens', () => {
  it('carry senderId, env, project and scope MEMBER', async () => {
    const { keys, project } = await projectWithKeys(t.api);
    const res = await t.api.post('/v1/chat/tokens', { token: keys.staging, body: { userId: 'u1', ttlSeconds: 3600 } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ userId: 'u1', environment: 'staging' });
    expect(jwtClaims(res.body.token)).toMatchObject({
      senderId: 'u1',
      sub: 'u1',
      env: 'staging',
      prj: project.id,
      scope: 'MEMBER',
    });
    expectError(
      await t.api.post('/v1/chat/tokens', { token: keys.staging, body: { userId: 'u1', scope: 'ADMIN' } }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
    expectError(
      await t.api.post('/v1/chat/tokens', { token: res.body.token, body: { userId: 'u2' } }),
      401,
      'SERVICE_UNAUTHENTICATED',
    );
  });
});

describe('conversations', () => {
  it('makes the creating user ADMIN, lists only a user’s own conversations, and keeps names unique per environment', async () => {
    const { keys, key, alice, carol, conversation } = await chatSetup();
    const members = await t.api.get(`/v1/chat/conversations/${conversation.id}/members`, { token: alice });
    expect(members.body.data.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      ['alice', 'ADMIN'],
      ['bob', 'MEMBER'],
    ]);
    expect(
      (await t.api.get('/v1/chat/conversations', { token: alice })).body.data.map((c: { id: string }) => c.id),
    ).toEqual([conversation.id]);
    expect((await t.api.get('/v1/chat/conversations', { token: carol })).body.data).toEqual([]);
    expectError(
      await t.api.get(`/v1/chat/conversations/${conversation.id}`, { token: carol }),
      404,
      'SERVICE_CONVERSATION_NOT_FOUND',
    );
    expectError(
      await t.api.post('/v1/chat/conversations', { token: key, body: { name: conversation.name } }),
      409,
      'SERVICE_CONVERSATION_EXISTS',
    );
    expect(
      (await t.api.post('/v1/chat/conversations', { token: keys.staging, body: { name: conversation.name } })).status,
    ).toBe(201);
  });

  it('is 404 from another environment, for conversations and messages alike', async () => {
    const { keys, alice, conversation } = await chatSetup('production');
    const sent = await send(alice, conversation.id, { text: 'hi' });
    for (const other of [keys.development, keys.staging]) {
      expectError(
        await t.api.get(`/v1/chat/conversations/${conversation.id}`, { token: other }),
        404,
        'SERVICE_CONVERSATION_NOT_FOUND',
      );
      expectError(
        await send(other, conversation.id, { text: 'x', senderId: 'alice' }),
        404,
        'SERVICE_CONVERSATION_NOT_FOUND',
      );
      expectError(
        await t.api.get(`/v1/chat/messages/${sent.body.id}`, { token: other }),
        404,
        'SERVICE_MESSAGE_NOT_FOUND',
      );
      expectError(
        await t.api.delete(`/v1/chat/messages/${sent.body.id}`, { token: other }),
        404,
        'SERVICE_MESSAGE_NOT_FOUND',
      );
      const otherUser = await mintChatToken(t.api, other, 'alice');
      expectError(
        await t.api.get(`/v1/chat/messages/${sent.body.id}`, { token: otherUser }),
        404,
        'SERVICE_MESSAGE_NOT_FOUND',
      );
    }
    expect((await t.api.get(`/v1/chat/messages/${sent.body.id}`, { token: keys.production })).body.text).toBe('hi');
  });

  it('answers a conversation as last updated, and never from another environment or a deleted project', async () => {
    const { owner, project, keys, key, conversation } = await chatSetup();
    const base = `/v1/chat/conversations/${conversation.id}`;
    expect((await t.api.get(base, { token: key })).body.name).toBe(conversation.name);
    const name = `renamed-${Math.random()}`;
    expect((await t.api.patch(base, { token: key, body: { name, metadata: { topic: 'launch' } } })).status).toBe(200);
    expect((await t.api.get(base, { token: key })).body).toMatchObject({ name, metadata: { topic: 'launch' } });
    expect((await send(key, conversation.id, { text: 'still here', senderId: 'alice' })).status).toBe(201);
    // The old name is free again in this environment.
    const again = await t.api.post('/v1/chat/conversations', { token: key, body: { name: conversation.name } });
    expect(again.status).toBe(201);
    expectError(await t.api.get(base, { token: keys.staging }), 404, 'SERVICE_CONVERSATION_NOT_FOUND');
    expectError(
      await send(keys.staging, conversation.id, { text: 'from staging', senderId: 'alice' }),
      404,
      'SERVICE_CONVERSATION_NOT_FOUND',
    );
    expect((await t.api.delete(`/v1/projects/${project.id}`, { token: owner.token })).status).toBe(204);
    expectError(await t.api.get(base, { token: key }), 401, 'SERVICE_UNAUTHENTICATED');
  });

  it('enforces conversation roles: only ADMINs add members and update; MODERATORs remove MEMBERs; anyone leaves', async () => {
    const { key, alice, bob, carol, conversation } = await chatSetup();
    const base = `/v1/chat/conversations/${conversation.id}`;
    expectError(
      await t.api.post(`${base}/members`, { token: bob, body: { userId: 'dave' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expectError(await t.api.patch(base, { token: bob, body: { name: 'renamed' } }), 403, 'SERVICE_PERMISSION_DENIED');
    expect(
      (await t.api.post(`${base}/members`, { token: alice, body: { userId: 'carol', role: 'MODERATOR' } })).status,
    ).toBe(201);
    expect((await t.api.post(`${base}/members`, { token: alice, body: { userId: 'dave' } })).status).toBe(201);
    expect((await t.api.patch(base, { token: alice, body: { name: `renamed-${Math.random()}` } })).status).toBe(200);
    // carol (MODERATOR) removes dave (MEMBER) but not alice (ADMIN); bob leaves on his own.
    expect((await t.api.delete(`${base}/members/dave`, { token: carol })).status).toBe(204);
    expectError(await t.api.delete(`${base}/members/alice`, { token: carol }), 403, 'SERVICE_PERMISSION_DENIED');
    expect((await t.api.delete(`${base}/members/bob`, { token: bob })).status).toBe(204);
    expectError(await t.api.get(base, { token: bob }), 404, 'SERVICE_CONVERSATION_NOT_FOUND');
    // A server (API key) may do everything.
    expect((await t.api.delete(`${base}/members/carol`, { token: key })).status).toBe(204);
  });
});

describe('messages', () => {
  it('takes the sender from the chat token and refuses a forged one', async () => {
    const { key, alice, bob, carol, conversation } = await chatSetup();
    const sent = await send(bob, conversation.id, { text: 'hello' });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      senderId: 'bob',
      text: 'hello',
      conversationId: conversation.id,
    });
    const forged = await send(bob, conversation.id, { text: 'it was alice', senderId: 'alice' });
    expectError(forged, 400, 'SERVICE_VALIDATION_FAILED');
    expect(forged.body.message).toContain('senderId');
    expectError(await send(carol, conversation.id, { text: 'not a member' }), 404, 'SERVICE_CONVERSATION_NOT_FOUND');
    // A server names the sender, and must.
    expect((await send(key, conversation.id, { text: 'from the backend', senderId: 'alice' })).body.senderId).toBe(
      'alice',
    );
    expectError(await send(key, conversation.id, { text: 'who?' }), 400, 'SERVICE_VALIDATION_FAILED');
    expectError(await send(alice, conversation.id, { text: 'x'.repeat(4001) }), 400, 'SERVICE_VALIDATION_FAILED');
    expectError(await send(alice, conversation.id, { text: '' }), 400, 'SERVICE_VALIDATION_FAILED');
  });

  it('edits only by the sender, deletes as a tombstone by sender or moderator, and keeps threads', async () => {
    const { alice, bob, conversation } = await chatSetup();
    const root = (await send(bob, conversation.id, { text: 'question' })).body;
    const reply = (await send(alice, conversation.id, { text: 'answer', parentId: root.id })).body;
    expectError(
      await send(alice, conversation.id, { text: 'nested', parentId: reply.id }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );

    expectError(
      await t.api.patch(`/v1/chat/messages/${root.id}`, { token: alice, body: { text: 'changed' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    const edited = await t.api.patch(`/v1/chat/messages/${root.id}`, {
      token: bob,
      body: { text: 'question, edited' },
    });
    expect(edited.body).toMatchObject({ text: 'question, edited', editedAt: expect.any(String) });

    expectError(await t.api.delete(`/v1/chat/messages/${reply.id}`, { token: bob }), 403, 'SERVICE_PERMISSION_DENIED');
    expect((await t.api.delete(`/v1/chat/messages/${root.id}`, { token: alice })).status).toBe(204);
    const thread = await t.api.get(`/v1/chat/messages/${root.id}/thread`, { token: bob });
    expect(thread.body.parent).toMatchObject({ id: root.id, deleted: true, text: null, replyCount: 1 });
    expect(thread.body.data.map((m: { id: string }) => m.id)).toEqual([reply.id]);
    expectError(
      await t.api.patch(`/v1/chat/messages/${root.id}`, { token: bob, body: { text: 'back' } }),
      409,
      'SERVICE_MESSAGE_DELETED',
    );
  });

  it('pages with opaque before/after cursors, without duplicates or gaps while messages are added', async () => {
    const { key, alice, conversation } = await chatSetup();
    const sentIds: string[] = [];
    for (let i = 0; i < 7; i++) sentIds.push((await send(alice, conversation.id, { text: `m${i}` })).body.id);
    const base = `/v1/chat/conversations/${conversation.id}/messages`;

    const newest = await t.api.get(`${base}?limit=3`, { token: alice });
    expect(newest.body.data.map((m: { id: string }) => m.id)).toEqual(sentIds.slice(4));
    expect(newest.body.nextCursor).toBeNull();
    // Walk backwards while new messages keep arriving: every old message once, in order.
    const seen: string[] = [...newest.body.data.map((m: { id: string }) => m.id)];
    let before = newest.body.prevCursor;
    while (before) {
      sentIds.push((await send(key, conversation.id, { text: 'meanwhile', senderId: 'bob' })).body.id);
      const page = await t.api.get(`${base}?limit=3&before=${encodeURIComponent(before)}`, { token: alice });
      seen.unshift(...page.body.data.map((m: { id: string }) => m.id));
      before = page.body.prevCursor;
    }
    expect(seen).toEqual(sentIds.slice(0, 7));
    // And forwards from the first page: exactly the rest, including what arrived meanwhile.
    const forward: string[] = [];
    let after: string | null = (
      await t.api.get(`${base}?limit=1&before=${encodeURIComponent(newest.body.prevCursor)}`, { token: alice })
    ).body.nextCursor;
    while (after) {
      const page = await t.api.get(`${base}?limit=4&after=${encodeURIComponent(after)}`, { token: alice });
      forward.push(...page.body.data.map((m: { id: string }) => m.id));
      after = page.body.nextCursor;
    }
    expect(forward).toEqual(sentIds.slice(4));
    expectError(await t.api.get(`${base}?offset=3`, { token: alice }), 400, 'SERVICE_VALIDATION_FAILED');
    expectError(await t.api.get(`${base}?before=abc`, { token: alice }), 400, 'SERVICE_VALIDATION_FAILED');
    expectError(
      await t.api.get(`${base}?before=${newest.body.prevCursor}&after=${newest.body.prevCursor}`, { token: alice }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
  });
});

describe('reactions and read state', () => {
  it('counts reactions per emoji and shows the user’s own', async () => {
    const { alice, bob, conversation } = await chatSetup();
    const message = (await send(alice, conversation.id, { text: 'ship it?' })).body;
    const path = `/v1/chat/messages/${message.id}/reactions`;
    await t.api.post(path, { token: alice, body: { emoji: '👍' } });
    await t.api.post(path, { token: bob, body: { emoji: '👍' } });
    const res = await t.api.post(path, { token: bob, body: { emoji: '🎉' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      reactionCounts: { '👍': 2, '🎉': 1 },
      ownReactions: expect.arrayContaining(['👍', '🎉']),
    });
    expect((await t.api.post(path, { token: bob, body: { emoji: '🎉' } })).body.reactionCounts['🎉']).toBe(1);
    expect((await t.api.delete(`${path}/${encodeURIComponent('👍')}`, { token: bob })).status).toBe(204);
    expectError(
      await t.api.delete(`${path}/${encodeURIComponent('👍')}`, { token: bob }),
      404,
      'SERVICE_REACTION_NOT_FOUND',
    );
    const seenByAlice = await t.api.get(`/v1/chat/messages/${message.id}`, { token: alice });
    expect(seenByAlice.body).toMatchObject({ reactionCounts: { '👍': 1, '🎉': 1 }, ownReactions: ['👍'] });
    expectError(
      await t.api.post(path, { token: alice, body: { emoji: '👍', userId: 'bob' } }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
  });

  it('tracks read state with unread counts, only forwards, and lists receipts', async () => {
    const { key, alice, bob, conversation } = await chatSetup();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await send(alice, conversation.id, { text: `m${i}` })).body.id);
    const state = (token: string, q = '') =>
      t.api.get(`/v1/chat/conversations/${conversation.id}/read-state${q}`, { token });
    expect((await state(bob)).body).toMatchObject({ userId: 'bob', lastReadMessageId: null, unreadCount: 4 });
    expect((await state(alice)).body.unreadCount).toBe(0);
    const read = await t.api.post(`/v1/chat/messages/${ids[2]}/read`, { token: bob, body: {} });
    expect(read.body).toMatchObject({ lastReadMessageId: ids[2], unreadCount: 1 });
    await t.api.post(`/v1/chat/messages/${ids[0]}/read`, { token: bob, body: {} });
    expect((await state(bob)).body.lastReadMessageId).toBe(ids[2]);
    expect((await state(key, '?userId=bob')).body.unreadCount).toBe(1);
    expectError(await state(key), 400, 'SERVICE_VALIDATION_FAILED');
    const receipts = await t.api.get(`/v1/chat/conversations/${conversation.id}/read-receipts`, { token: alice });
    expect(receipts.body.data).toEqual([{ userId: 'bob', lastReadMessageId: ids[2], readAt: expect.any(String) }]);
  });
});
