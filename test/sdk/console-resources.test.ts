import { describe, expect, it } from 'vitest';
import { serverClient } from '../support/sdk-keys.js';
import { connectSignaling } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';
import { startReceiver } from '../support/webhook-receiver.js';

const t = useTestServer();

describe('ConsoleClient: webhooks', () => {
  it('lists the event catalogue, each type with its description and an example', async () => {
    const { console: client } = await serverClient(t.server.url);
    const catalogue = await client.webhooks.eventTypes();
    expect(catalogue.data.map((entry) => entry.type)).toContain('message.created');
    for (const entry of catalogue.data) expect(entry.description).toMatch(/\S/);
  });

  it('registers, lists, gets, updates, tests, lists deliveries, resends and deletes', async () => {
    const receiver = await startReceiver();
    try {
      const { console: client, projectId } = await serverClient(t.server.url);
      const registered = await client.webhooks.register(projectId, {
        url: receiver.url,
        environment: 'staging',
        events: ['message.created'],
      });
      expect(registered.secret).toMatch(/^whsec_/);
      expect(registered).toMatchObject({ environment: 'STAGING', enabled: true, events: ['message.created'] });
      expect((await client.webhooks.list(projectId)).data).toEqual([]);
      const [listed] = (await client.webhooks.list(projectId, { environment: 'staging' })).data;
      expect(listed.id).toBe(registered.id);
      expect(JSON.stringify(listed)).not.toContain(registered.secret);
      expect((await client.webhooks.get(projectId, registered.id, { environment: 'staging' })).url).toBe(receiver.url);
      const updated = await client.webhooks.update(
        projectId,
        registered.id,
        { events: [] },
        { environment: 'staging' },
      );
      expect(updated.events).toEqual([]);

      const test = await client.webhooks.test(projectId, registered.id, 'room.created', { environment: 'staging' });
      expect(test).toMatchObject({ webhookId: registered.id, eventType: 'room.created' });
      await receiver.waitForRequests(1);
      const page = await client.webhooks.deliveries(projectId, registered.id, { environment: 'staging' });
      expect(page.data.map((d) => d.id)).toContain(test.id);
      const resent = await client.webhooks.resend(projectId, registered.id, test.id, { environment: 'staging' });
      expect(resent.eventId).toBe(test.eventId);
      await receiver.waitForRequests(2);
      const fetched = await client.webhooks.delivery(projectId, registered.id, resent.id, { environment: 'staging' });
      expect(fetched.id).toBe(resent.id);
      const all = [];
      for await (const d of client.webhooks.allDeliveries(projectId, registered.id, {
        environment: 'staging',
        limit: 1,
      }))
        all.push(d.id);
      expect(all).toContain(resent.id);
      await client.webhooks.delete(projectId, registered.id, { environment: 'staging' });
      await expect(client.webhooks.get(projectId, registered.id, { environment: 'staging' })).rejects.toMatchObject({
        status: 404,
      });
    } finally {
      await receiver.close();
    }
  });
});

describe('ConsoleClient: rooms, live streams and chat inspection', () => {
  it('lists and creates rooms per environment', async () => {
    const { console: client, projectId, server } = await serverClient(t.server.url, 'production');
    const room = await client.rooms.create(projectId, { name: 'lobby' }, { environment: 'production' });
    expect(room.environment).toBe('production');
    expect((await server.rooms.get(room.id)).name).toBe('lobby');
    expect((await client.rooms.list(projectId)).data).toEqual([]);
    expect((await client.rooms.list(projectId, { environment: 'production' })).data.map((r) => r.id)).toEqual([
      room.id,
    ]);
  });

  it('gets a room, mints a token for it, lists its participants and deletes it', async () => {
    const { console: client, projectId } = await serverClient(t.server.url);
    const room = await client.rooms.create(projectId, { name: 'huddle' });
    expect((await client.rooms.get(projectId, room.id)).name).toBe('huddle');
    const minted = await client.rooms.createRtcToken(projectId, room.id, { identity: 'ada', publish: false });
    expect(minted).toMatchObject({ identity: 'ada', roomId: room.id, permissions: { publish: false } });
    const ada = connectSignaling(t.server.url, minted.token);
    await ada.next('joined');
    expect((await client.rooms.participants(projectId, room.id)).data.map((p) => p.identity)).toEqual(['ada']);
    await client.rooms.delete(projectId, room.id);
    expect((await ada.closed).code).toBe(4410);
    const missing = await client.rooms.get(projectId, room.id).catch((err: unknown) => err);
    expect(missing).toMatchObject({ status: 404, code: 'SERVICE_ROOM_NOT_FOUND' });
  });

  it('creates, lists, gets, updates and ends live streams', async () => {
    const { console: client, projectId } = await serverClient(t.server.url);
    const stream = await client.liveStreams.create(projectId, { title: 'Show' });
    expect((await client.liveStreams.list(projectId)).data.map((s) => s.id)).toEqual([stream.id]);
    expect((await client.liveStreams.update(projectId, stream.id, { title: 'Show 2' })).title).toBe('Show 2');
    expect((await client.liveStreams.get(projectId, stream.id)).title).toBe('Show 2');
    expect((await client.liveStreams.end(projectId, stream.id)).status).toBe('ENDED');
  });

  it('inspects chat: overview, conversations, connections and presence (metadata only)', async () => {
    const { console: client, projectId, server } = await serverClient(t.server.url);
    const conv = await server.conversations.create({ name: 'ops', createdBy: 'alice' });
    await server.messages.send(conv.id, { text: 'secret text', senderId: 'alice' });
    expect(await client.chat.overview(projectId)).toMatchObject({ conversations: 1, messages: 1, connections: 0 });
    const page = await client.chat.conversations(projectId);
    expect(page.data).toEqual([expect.objectContaining({ id: conv.id, messageCount: 1 })]);
    expect(JSON.stringify(page)).not.toContain('secret text');
    expect(await client.chat.connections(projectId)).toEqual({ data: [] });
    expect((await client.chat.presence(projectId, conv.id)).data).toContainEqual(
      expect.objectContaining({ userId: 'alice', online: false }),
    );
  });
});
