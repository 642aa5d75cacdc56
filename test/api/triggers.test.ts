import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType } from '../../server/webhooks/catalogue.js';
import {
  addMember,
  createKey,
  createProject,
  expectError,
  mintChatToken,
  registerUser,
  registerWebhook,
  type TestUser,
} from '../support/factories.js';
import { connectRealtime, type SocketClient } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';
import { eventually } from '../support/wait.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { envelopeOf } from '../support/webhooks.js';

const t = useTestServer();
const receivers: WebhookReceiver[] = [];
const sockets: SocketClient[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const triggersPath = (projectId: string, environment?: string) =>
  `/v1/projects/${projectId}/environment/triggers${environment ? `?environment=${environment}` : ''}`;

/** A project of its own (so that no other test's events reach its endpoints), its owner and a development key. */
async function freshProject() {
  const owner = await registerUser(t.api);
  const project = await createProject(t.api, owner);
  const key = (await createKey(t.api, project.id, owner, 'development')).key;
  return { owner, projectId: project.id, key };
}

/** A loopback receiver with an endpoint of the project's development subscribed to `events` (all when empty). */
async function endpoint(projectId: string, owner: TestUser, events: EventType[] = []) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  await registerWebhook(t.api, projectId, owner, { url: receiver.url, events });
  return receiver;
}

async function trigger(projectId: string, owner: TestUser, event: string, environment?: string) {
  return t.api.post(triggersPath(projectId, environment), { token: owner.token, body: { event } });
}

/** The chat user's realtime socket, connected (and told of its conversations) before anything is triggered. */
async function chatUser(key: string, userId: string) {
  const socket = connectRealtime(t.server.url, await mintChatToken(t.api, key, userId));
  sockets.push(socket);
  await socket.next('connected');
  return socket;
}

/** Where each triggered event's data names what the trigger answered it made. */
const namesObjects: Record<EventType, (data: any, objects: any) => void> = {
  'message.created': (d, o) => expect(d.message).toMatchObject({ id: o.message.id, roomId: o.conversation.id }),
  'message.updated': (d, o) => expect(d.message.id).toBe(o.message.id),
  'message.deleted': (d, o) => expect(d.message.id).toBe(o.message.id),
  'reaction.added': (d, o) => expect(d.reaction).toEqual({ ...o.reaction, roomId: o.conversation.id }),
  'reaction.removed': (d, o) => expect(d.reaction).toEqual({ ...o.reaction, roomId: o.conversation.id }),
  'conversation.created': (d, o) => expect(d.conversation).toMatchObject({ id: o.conversation.id }),
  'member.added': (d, o) => expect(d.member).toMatchObject({ roomId: o.member.conversationId, userId: 'trigger-bob' }),
  'member.removed': (d, o) =>
    expect(d.member).toMatchObject({ roomId: o.member.conversationId, userId: 'trigger-bob' }),
  'room.created': (d, o) => expect(d.room).toMatchObject(o.room),
  'room.deleted': (d, o) => expect(d.room).toMatchObject(o.room),
  'participant.joined': (d, o) =>
    expect(d).toMatchObject({ room: { id: o.participant.roomId }, participant: { identity: 'trigger-alice' } }),
  'participant.left': (d, o) =>
    expect(d).toMatchObject({ room: { id: o.participant.roomId }, participant: { identity: 'trigger-alice' } }),
  'live_stream.started': (d, o) => expect(d.liveStream).toMatchObject({ id: o.liveStream.id, status: 'LIVE' }),
  'live_stream.ended': (d, o) => expect(d.liveStream).toMatchObject({ id: o.liveStream.id, status: 'ENDED' }),
  'live_stream.host_joined': (d, o) =>
    expect(d).toEqual({ liveStream: { id: o.liveStream.id }, identity: o.liveStreamParticipant.identity }),
  'live_stream.viewer_joined': (d, o) =>
    expect(d).toEqual({ liveStream: { id: o.liveStream.id }, identity: o.liveStreamParticipant.identity }),
};

const matches = (check: (data: any, objects: any) => void, data: unknown, objects: unknown) => {
  try {
    check(data, objects);
    return true;
  } catch {
    return false;
  }
};

describe('triggers: POST /v1/projects/{id}/environment/triggers', () => {
  it('message.created: a real conversation and message, to a subscribed endpoint and to the members’ sockets', async () => {
    const { owner, projectId, key } = await freshProject();
    const receiver = await endpoint(projectId, owner, ['message.created']);
    const alice = await chatUser(key, 'trigger-alice');
    const bob = await chatUser(key, 'trigger-bob');

    const res = await trigger(projectId, owner, 'message.created');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      event: 'message.created',
      environment: 'development',
      triggeredAt: expect.any(String),
      objects: {
        conversation: {
          id: expect.stringMatching(/^conv_/),
          name: expect.stringMatching(/^Triggered: message\.created \([a-z0-9]{8}\)$/),
          members: ['trigger-alice', 'trigger-bob'],
        },
        message: { id: expect.stringMatching(/^msg_/), conversationId: expect.any(String), senderId: 'trigger-alice' },
      },
      events: ['conversation.created', 'member.added', 'member.added', 'message.created'],
    });
    const { conversation, message } = res.body.objects;

    // Webhook: only the subscribed type, with the real ids.
    const [delivered] = await receiver.waitForRequests(1);
    expect(envelopeOf(delivered)).toMatchObject({
      type: 'message.created',
      environment: 'DEVELOPMENT',
      data: { message: { id: message.id, roomId: conversation.id, senderId: 'trigger-alice' } },
    });
    // Realtime: both members hear of the new conversation, then of the message.
    for (const socket of [alice, bob]) {
      expect((await socket.next('conversation.created')).conversationId).toBe(conversation.id);
      expect((await socket.next('message.created')).data.message).toMatchObject({ id: message.id });
    }
    // The objects are there, through the API, as any.
    const read = await t.api.get(`/v1/chat/conversations/${conversation.id}/messages`, { token: key });
    expect(read.body.data.map((m: { id: string }) => m.id)).toEqual([message.id]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.requests).toHaveLength(1);
  });

  it('message.updated and reaction.added: the edit and the reaction reach endpoints and sockets', async () => {
    const { owner, projectId, key } = await freshProject();
    const receiver = await endpoint(projectId, owner, ['message.updated', 'reaction.added']);
    const bob = await chatUser(key, 'trigger-bob');

    const updated = await trigger(projectId, owner, 'message.updated');
    expect(updated.status, JSON.stringify(updated.body)).toBe(201);
    expect(updated.body.events).toEqual([
      'conversation.created',
      'member.added',
      'member.added',
      'message.created',
      'message.updated',
    ]);
    const reacted = await trigger(projectId, owner, 'reaction.added');
    expect(reacted.status, JSON.stringify(reacted.body)).toBe(201);
    expect(reacted.body.objects.reaction).toEqual({
      messageId: reacted.body.objects.message.id,
      userId: 'trigger-bob',
      emoji: '👍',
    });
    // Each trigger made its own conversation: names carry a suffix.
    expect(reacted.body.objects.conversation.id).not.toBe(updated.body.objects.conversation.id);

    const envelopes = (await receiver.waitForRequests(2)).map(envelopeOf);
    const byType = Object.fromEntries(envelopes.map((e) => [e.type, e.data]));
    expect(byType['message.updated'].message).toMatchObject({
      id: updated.body.objects.message.id,
      text: expect.stringMatching(/^Edited by Triggered: message\.updated/),
    });
    expect(byType['reaction.added'].reaction).toMatchObject(reacted.body.objects.reaction);
    expect((await bob.next('message.updated')).data.message.id).toBe(updated.body.objects.message.id);
    expect((await bob.next('reaction.added')).data).toMatchObject({
      reaction: { messageId: reacted.body.objects.message.id, emoji: '👍' },
    });
  });

  it('live_stream.started and room.deleted: a real stream and room, through their services', async () => {
    const { owner, projectId, key } = await freshProject();
    const receiver = await endpoint(projectId, owner, ['live_stream.started', 'room.deleted']);

    const started = await trigger(projectId, owner, 'live_stream.started');
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const stream = started.body.objects.liveStream;
    expect(stream).toMatchObject({ id: expect.stringMatching(/^ls_/), status: 'LIVE' });
    expect((await t.api.get(`/v1/live-streams/${stream.id}`, { token: key })).body).toMatchObject({
      id: stream.id,
      status: 'LIVE',
      title: expect.stringMatching(/^Triggered: live_stream\.started/),
    });
    const deleted = await trigger(projectId, owner, 'room.deleted');
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(201);
    expect(deleted.body.objects.room.name).toMatch(/^triggered-room\.deleted-[a-z0-9]{8}$/);
    expect((await t.api.get(`/v1/rooms/${deleted.body.objects.room.id}`, { token: key })).status).toBe(404);

    const envelopes = (await receiver.waitForRequests(2)).map(envelopeOf);
    expect(envelopes.find((e) => e.type === 'live_stream.started')?.data.liveStream).toMatchObject(stream);
    expect(envelopes.find((e) => e.type === 'room.deleted')?.data.room).toMatchObject(deleted.body.objects.room);
  });

  it('every event of the catalogue can be triggered: each emits what it says, the triggered one naming its objects', async () => {
    const { owner, projectId } = await freshProject();
    const receiver = await endpoint(projectId, owner); // subscribed to everything
    let delivered = 0;
    for (const event of EVENT_TYPES) {
      const res = await trigger(projectId, owner, event);
      expect(res.status, `${event}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.events, event).toContain(event);
      delivered += res.body.events.length;
      const envelopes = (await receiver.waitForRequests(delivered, 10_000))
        .slice(-res.body.events.length)
        .map(envelopeOf);
      // Deliveries of one endpoint run a few at a time, so they may arrive in another order than emitted.
      expect(envelopes.map((e) => e.type).sort(), event).toEqual([...res.body.events].sort());
      for (const envelope of envelopes) {
        expect(EVENT_CATALOGUE[envelope.type as EventType].data.safeParse(envelope.data).success, envelope.type).toBe(
          true,
        );
      }
      // One of them (member.added comes twice) is the triggered event, about what the trigger made.
      const about = envelopes
        .filter((e) => e.type === event)
        .map((e) => matches(namesObjects[event], e.data, res.body.objects));
      expect(about, `${event}: ${JSON.stringify(envelopes)}`).toContain(true);
    }
    // Nothing more than the triggers said.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.requests).toHaveLength(delivered);
  });

  it('lists every event of the catalogue with what its trigger does', async () => {
    const { owner, projectId } = await freshProject();
    const res = await t.api.get(triggersPath(projectId), { token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((d: { event: string }) => d.event)).toEqual(EVENT_TYPES);
    expect(res.body.data[0]).toEqual({
      event: 'message.created',
      description: expect.stringContaining('trigger-alice posts a message'),
      events: ['conversation.created', 'member.added', 'member.added', 'message.created'],
    });
  });

  it('acts in ?environment=: staging’s endpoints hear it, development’s do not', async () => {
    const { owner, projectId } = await freshProject();
    const development = await endpoint(projectId, owner);
    const staging = await startReceiver();
    receivers.push(staging);
    await registerWebhook(t.api, projectId, owner, { url: staging.url, environment: 'staging' });

    const res = await trigger(projectId, owner, 'room.created', 'staging');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.environment).toBe('staging');
    expect(envelopeOf((await staging.waitForRequests(1))[0])).toMatchObject({
      type: 'room.created',
      environment: 'STAGING',
      data: { room: res.body.objects.room },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(development.requests).toEqual([]);
  });

  it('is refused for production (403), for an unknown event (400, listing the events) and without rooms:write', async () => {
    const { owner, projectId } = await freshProject();
    const production = await trigger(projectId, owner, 'message.created', 'production');
    expectError(production, 403, 'SERVICE_PRODUCTION_ENVIRONMENT');

    const unknown = await trigger(projectId, owner, 'message.sent');
    expectError(unknown, 400, 'SERVICE_VALIDATION_FAILED');
    expect(unknown.body.message).toContain(
      `event: expected one of ${EVENT_TYPES.map((type) => `"${type}"`).join(', ')}, got "message.sent"`,
    );
    expect(unknown.body.fields).toEqual([{ path: 'event', message: expect.stringContaining('message.created') }]);
    const extra = await t.api.post(triggersPath(projectId), {
      token: owner.token,
      body: { event: 'room.created', data: {} },
    });
    expectError(extra, 400, 'SERVICE_VALIDATION_FAILED');

    const viewer = await registerUser(t.api);
    await addMember(t.api, projectId, owner, viewer, 'VIEWER');
    expectError(await trigger(projectId, viewer, 'room.created'), 403, 'SERVICE_PERMISSION_DENIED');
    const developer = await registerUser(t.api);
    await addMember(t.api, projectId, owner, developer, 'DEVELOPER');
    expect((await trigger(projectId, developer, 'room.created')).status).toBe(201);

    // Nothing was made in production, and only the developer's trigger is in the audit log.
    const key = (await createKey(t.api, projectId, owner, 'production')).key;
    expect((await t.api.get('/v1/chat/conversations', { token: key })).body.data).toEqual([]);
    const audit = await t.api.get(`/v1/projects/${projectId}/audit-logs?action=environment.event_triggered`, {
      token: owner.token,
    });
    expect(audit.body.data).toHaveLength(1);
  });

  it('is audited with the event, what it made and the events it emitted', async () => {
    const { owner, projectId } = await freshProject();
    const res = await trigger(projectId, owner, 'member.removed', 'staging');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.objects.conversation.members).toEqual(['trigger-alice']);
    const audit = await eventually(
      () =>
        t.api.get(`/v1/projects/${projectId}/audit-logs?action=environment.event_triggered`, { token: owner.token }),
      (r) => r.body.data.length === 1,
    );
    expect(audit.body.data[0]).toMatchObject({
      actor: { type: 'user', id: owner.id, email: owner.email },
      action: 'environment.event_triggered',
      target: { type: 'environment', id: 'staging' },
      environment: 'staging',
      details: {
        event: 'member.removed',
        objects: res.body.objects,
        events: ['conversation.created', 'member.added', 'member.added', 'member.removed'],
      },
    });
  });
});
