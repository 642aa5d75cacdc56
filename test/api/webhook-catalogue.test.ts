import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_CATALOGUE, EVENT_TYPES } from '../../server/webhooks/catalogue.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

/** The types the issue names: messages, reactions, conversations, members, rooms, participants, live streams. */
const EXPECTED_TYPES = [
  'message.created',
  'message.updated',
  'message.deleted',
  'reaction.added',
  'reaction.removed',
  'conversation.created',
  'member.added',
  'member.removed',
  'room.created',
  'room.deleted',
  'participant.joined',
  'participant.left',
  'live_stream.started',
  'live_stream.ended',
  'live_stream.host_joined',
  'live_stream.viewer_joined',
];

describe('the event catalogue', () => {
  it('is served publicly at /v1/webhook-events with a description and an example of each type', async () => {
    const res = await t.api.get('/v1/webhook-events');
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { type: string }) => e.type)).toEqual(EXPECTED_TYPES);
    for (const entry of res.body.data) {
      expect(entry.description.length, entry.type).toBeGreaterThan(10);
      expect(entry.example).toEqual(EVENT_CATALOGUE[entry.type as keyof typeof EVENT_CATALOGUE].example);
    }
  });

  it('has examples that match their own data schemas', () => {
    for (const type of EVENT_TYPES) {
      const { data, example } = EVENT_CATALOGUE[type];
      expect(data.safeParse(example).success, type).toBe(true);
    }
    expect(EVENT_CATALOGUE['message.created'].example).toEqual({
      message: {
        id: expect.stringMatching(/^msg_/),
        roomId: expect.stringMatching(/^conv_/),
        senderId: expect.any(String),
        text: expect.any(String),
      },
    });
  });

  it('is in the OpenAPI document: each type a webhook with the envelope, its data schema and the headers', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    expect(Object.keys(doc.webhooks)).toEqual(EXPECTED_TYPES);
    const created = doc.webhooks['message.created'].post;
    const schema = created.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['id', 'type', 'projectId', 'environment', 'createdAt', 'data']);
    expect(schema.properties.environment.enum).toEqual(['DEVELOPMENT', 'STAGING', 'PRODUCTION']);
    expect(schema.properties.data.properties.message.required).toEqual(['id', 'roomId', 'senderId', 'text']);
    expect(created.parameters.map((p: { name: string }) => p.name)).toEqual([
      'service-signature',
      'service-event-id',
      'service-event-type',
    ]);
    for (const path of [
      '/v1/projects/{id}/webhooks',
      '/v1/projects/{id}/webhooks/{webhookId}',
      '/v1/projects/{id}/webhooks/{webhookId}/deliveries',
      '/v1/projects/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/resend',
      '/v1/projects/{id}/webhooks/{webhookId}/test',
      '/v1/webhook-events',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });

  it('is in docs/webhooks.md, one row per type', () => {
    const doc = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    for (const type of EVENT_TYPES)
      expect(doc, type).toMatch(new RegExp(`^\\| \`${type.replace('.', '\\.')}\` \\|`, 'm'));
  });
});
