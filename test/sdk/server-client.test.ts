import { describe, expect, it } from 'vitest';
import { SwitchboardError, TelemetryClient } from '../../sdk/index.js';
import { serverClient } from '../support/sdk-keys.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

describe('ServerClient: rooms and RTC tokens', () => {
  it('creates, lists, gets and deletes rooms, lists participants and mints RTC tokens', async () => {
    const { server } = await serverClient(t.server.url);
    const room = await server.rooms.create({ name: 'standup', maxParticipants: 4 });
    expect(room).toMatchObject({ name: 'standup', environment: 'development' });
    expect(await server.rooms.get(room.id)).toMatchObject({ id: room.id });
    await server.rooms.create({ name: 'retro' });
    const first = await server.rooms.list({ limit: 1 });
    expect(first.data).toHaveLength(1);
    expect(first.nextCursor).not.toBeNull();
    const names: string[] = [];
    for await (const r of server.rooms.all({ limit: 1 })) names.push(r.name);
    expect(names.sort()).toEqual(['retro', 'standup']);
    expect(await server.rooms.participants(room.id)).toEqual({ data: [] });

    const token = await server.rooms.rtcTokens.create(room.id, { identity: 'alice', publish: false });
    expect(token.token.split('.')).toHaveLength(3);
    expect(typeof token.expiresAt).toBe('string');

    await server.rooms.delete(room.id);
    const err = await server.rooms.get(room.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SwitchboardError);
    expect(err).toMatchObject({ status: 404, code: 'SERVICE_ROOM_NOT_FOUND' });
  });
});

describe('ServerClient: chat', () => {
  it('mints chat tokens and manages conversations and members', async () => {
    const { server } = await serverClient(t.server.url, 'staging');
    const token = await server.chatTokens.create({ userId: 'alice' });
    expect(token).toMatchObject({ userId: 'alice', environment: 'staging' });

    const conv = await server.conversations.create({
      name: 'general',
      createdBy: 'alice',
      members: [{ userId: 'bob' }],
    });
    expect(conv).toMatchObject({ name: 'general', createdBy: 'alice', memberCount: 2 });
    expect((await server.conversations.list({ userId: 'bob' })).data.map((c) => c.id)).toEqual([conv.id]);
    expect((await server.conversations.update(conv.id, { name: 'random' })).name).toBe('random');
    expect((await server.conversations.get(conv.id)).name).toBe('random');

    expect(await server.members.add(conv.id, { userId: 'carol', role: 'MODERATOR' })).toMatchObject({
      userId: 'carol',
      role: 'MODERATOR',
    });
    expect((await server.members.list(conv.id)).data.map((m) => m.userId).sort()).toEqual(['alice', 'bob', 'carol']);
    await server.members.remove(conv.id, 'carol');
    expect((await server.members.list(conv.id)).data).toHaveLength(2);
    expect(await server.conversations.presence(conv.id)).toMatchObject({ data: expect.any(Array) });
    expect(await server.conversations.typing(conv.id)).toEqual({ data: [] });
  });

  it('sends, pages, threads, edits, deletes, reacts and tracks reads', async () => {
    const { server } = await serverClient(t.server.url);
    const conv = await server.conversations.create({ name: 'msgs', createdBy: 'alice', members: [{ userId: 'bob' }] });
    const sent = [];
    for (const text of ['one', 'two', 'three'])
      sent.push(await server.messages.send(conv.id, { text, senderId: 'alice' }));

    const newest = await server.messages.list(conv.id, { limit: 2 });
    expect(newest.data.map((m) => m.text)).toEqual(['two', 'three']);
    expect(newest.prevCursor).not.toBeNull();
    const older = await server.messages.list(conv.id, { limit: 2, before: newest.prevCursor ?? undefined });
    expect(older.data.map((m) => m.text)).toEqual(['one']);
    expect(older.nextCursor).not.toBeNull();
    const after = await server.messages.list(conv.id, { after: older.nextCursor ?? undefined });
    expect(after.data.map((m) => m.text)).toEqual(['two', 'three']);

    const reply = await server.messages.send(conv.id, { text: 'reply', parentId: sent[0].id, senderId: 'bob' });
    const thread = await server.messages.thread(sent[0].id);
    expect(thread.parent.id).toBe(sent[0].id);
    expect(thread.data.map((m) => m.id)).toEqual([reply.id]);

    expect((await server.messages.edit(sent[1].id, { text: 'TWO', userId: 'alice' })).text).toBe('TWO');
    expect((await server.messages.get(sent[1].id)).editedAt).not.toBeNull();
    await server.messages.delete(sent[2].id, { userId: 'alice' });
    expect(await server.messages.get(sent[2].id)).toMatchObject({ deleted: true, text: null });

    const reacted = await server.reactions.add(sent[0].id, { emoji: '👍', userId: 'bob' });
    expect(reacted.reactionCounts).toEqual({ '👍': 1 });
    expect((await server.messages.get(sent[0].id, { userId: 'bob' })).ownReactions).toEqual(['👍']);
    await server.reactions.remove(sent[0].id, '👍', { userId: 'bob' });
    expect((await server.messages.get(sent[0].id)).reactionCounts).toEqual({});

    expect((await server.conversations.readState(conv.id, { userId: 'bob' })).unreadCount).toBeGreaterThan(0);
    const read = await server.messages.markRead(sent[1].id, { userId: 'bob' });
    expect(read).toMatchObject({ userId: 'bob', lastReadMessageId: sent[1].id });
    expect((await server.conversations.readReceipts(conv.id)).data).toContainEqual(
      expect.objectContaining({ userId: 'bob', lastReadMessageId: sent[1].id }),
    );
  });

  it('uploads an attachment in one call (create → PUT → complete) and sends it with a message', async () => {
    const { server } = await serverClient(t.server.url);
    const conv = await server.conversations.create({ name: 'files', createdBy: 'alice' });
    const bytes = new TextEncoder().encode('hello, attachment');
    const attachment = await server.attachments.upload(conv.id, {
      filename: 'hello.txt',
      contentType: 'text/plain',
      data: bytes,
      uploaderId: 'alice',
    });
    expect(attachment).toMatchObject({ status: 'COMPLETED', size: bytes.byteLength, uploaderId: 'alice' });
    const blob = await server.attachments.upload(conv.id, {
      filename: 'b.bin',
      contentType: 'application/octet-stream',
      data: new Blob([new Uint8Array([1, 2, 3])]),
      uploaderId: 'alice',
    });
    expect(blob.size).toBe(3);

    const message = await server.messages.send(conv.id, {
      text: 'see file',
      senderId: 'alice',
      attachmentIds: [attachment.id],
    });
    expect(message.attachments.map((a) => a.id)).toEqual([attachment.id]);
    const { url } = await server.attachments.downloadUrl(attachment.id);
    expect(await (await fetch(url)).text()).toBe('hello, attachment');
  });
});

describe('ServerClient: live streams', () => {
  it('goes CREATED → LIVE → ENDED with host and viewer credentials', async () => {
    const { server } = await serverClient(t.server.url);
    const stream = await server.liveStreams.create({ title: 'Launch' });
    expect(stream.status).toBe('CREATED');
    expect((await server.liveStreams.update(stream.id, { title: 'Launch day' })).title).toBe('Launch day');
    expect((await server.liveStreams.list()).data.map((s) => s.id)).toEqual([stream.id]);
    const host = await server.liveStreams.hosts.add(stream.id, { identity: 'host-1', role: 'HOST' });
    expect(host).toMatchObject({ identity: 'host-1', role: 'HOST', roomId: stream.roomId });
    await server.liveStreams.hosts.add(stream.id, { identity: 'co-1', role: 'CO_HOST' });
    await server.liveStreams.hosts.remove(stream.id, 'co-1', { removedBy: 'host-1' });
    expect((await server.liveStreams.start(stream.id)).status).toBe('LIVE');
    const viewer = await server.liveStreams.viewerTokens.create(stream.id, { identity: 'v-1' });
    expect(viewer).toMatchObject({ identity: 'v-1' });
    await server.liveStreams.leave(stream.id, { identity: 'v-1' });
    expect((await server.liveStreams.end(stream.id)).status).toBe('ENDED');
    expect((await server.liveStreams.get(stream.id)).endedAt).not.toBeNull();
    await expect(server.liveStreams.start(stream.id)).rejects.toMatchObject({ status: 409 });
  });
});

describe('TelemetryClient: what a call reports with its RTC token', () => {
  it('sends events tagged by the server with the token’s room and identity, and refuses a wrong token', async () => {
    const { console: client, projectId, server } = await serverClient(t.server.url);
    const room = await server.rooms.create({ name: 'telemetry-call' });
    const { token } = await server.rooms.rtcTokens.create(room.id, { identity: 'alice' });
    const telemetry = new TelemetryClient({ baseUrl: t.server.url, token });
    expect(await telemetry.send([{ type: 'call.joined' }, { type: 'media.stalled', data: { ms: 300 } }])).toEqual({
      accepted: 2,
    });
    expect(
      (await client.observability.metrics(projectId, { window: '15m' })).series.telemetryEvents.at(-1)?.value,
    ).toBe(2);
    const refused = await new TelemetryClient({ baseUrl: t.server.url, token: 'nope' })
      .send([{ type: 'call.joined' }])
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401, code: 'SERVICE_UNAUTHENTICATED' });
  });
});
