import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/webhooks.js';
import { createKey } from '../support/factories.js';
import { envelopeOf, startWebhookHarness, type WebhookHarness } from '../support/webhooks.js';

let h: WebhookHarness;
beforeAll(async () => {
  h = await startWebhookHarness();
});
afterAll(() => h.dispose());

describe('chat and rooms feed the webhook worker', () => {
  it('delivers message.created from a real chat message, signed, with the spec’s data shape, to its environment only', async () => {
    const devReceiver = await h.receiver();
    const stagingReceiver = await h.receiver();
    const dev = await h.register({ url: devReceiver.url, events: ['message.created', 'room.created'] });
    await h.register({ url: stagingReceiver.url, environment: 'staging' });
    const key = (await createKey(h.api, h.projectId, h.owner, 'development')).key;

    await h.api.post('/v1/rooms', { token: key, body: { name: 'standup' } });
    const conversation = (
      await h.api.post('/v1/chat/conversations', {
        token: key,
        body: { name: 'general', members: [{ userId: 'alice' }] },
      })
    ).body;
    const message = (
      await h.api.post(`/v1/chat/conversations/${conversation.id}/messages`, {
        token: key,
        body: { text: 'hello hooks', senderId: 'alice' },
      })
    ).body;
    await h.server.runDueWebhooks();

    const requests = await devReceiver.waitForRequests(2);
    const envelopes = requests.map(envelopeOf);
    expect(envelopes.map((e) => e.type).sort()).toEqual(['message.created', 'room.created']);
    const created = requests.find((r) => envelopeOf(r).type === 'message.created');
    if (!created) throw new Error('no message.created delivery');
    expect(envelopeOf(created)).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      projectId: h.projectId,
      environment: 'DEVELOPMENT',
      data: { message: { id: message.id, roomId: conversation.id, senderId: 'alice', text: 'hello hooks' } },
    });
    expect(Object.keys(envelopeOf(created).data.message).sort()).toEqual(['id', 'roomId', 'senderId', 'text']);
    const header = String(created.headers['service-signature']);
    expect(verifyWebhook(dev.secret, header, created.rawBody, { toleranceSeconds: 300, now: h.clock.now() })).toBe(
      true,
    );
    expect(stagingReceiver.requests).toEqual([]);
  });
});

describe('which endpoints an event goes to', () => {
  it('follows every change of an endpoint from the very next event: its events, disabling, enabling, deleting', async () => {
    const receiver = await h.receiver();
    const webhook = await h.register({ url: receiver.url, events: ['room.created'] });
    const path = `/v1/projects/${h.projectId}/webhooks/${webhook.id}?environment=development`;
    const change = async (body: Record<string, unknown>) =>
      expect((await h.api.patch(path, { token: h.owner.token, body })).status).toBe(200);
    const deliveredTypes = async () => (await h.deliveries(webhook)).map((d: { eventType: string }) => d.eventType);

    h.emit('room.created');
    h.emit('room.deleted');
    await h.server.runDueWebhooks();
    expect(await deliveredTypes()).toEqual(['room.created']);

    await change({ events: ['room.deleted'] });
    h.emit('room.created');
    h.emit('room.deleted');
    await h.server.runDueWebhooks();
    expect(await deliveredTypes()).toEqual(['room.deleted', 'room.created']);

    await change({ enabled: false });
    h.emit('room.deleted');
    await h.server.runDueWebhooks();
    expect(await deliveredTypes()).toHaveLength(2);

    await change({ enabled: true });
    h.emit('room.deleted');
    await h.server.runDueWebhooks();
    expect(await deliveredTypes()).toEqual(['room.deleted', 'room.deleted', 'room.created']);

    expect((await h.api.delete(path, { token: h.owner.token })).status).toBe(204);
    const other = await h.register({ url: receiver.url, events: ['room.deleted'] });
    h.emit('room.deleted');
    await h.server.runDueWebhooks();
    expect(await h.deliveries(other)).toHaveLength(1);
  });
});
