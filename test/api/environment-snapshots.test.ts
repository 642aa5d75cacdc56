import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedAttachment } from '../support/attachment-bytes.js';
import {
  createConversation,
  createLiveStream,
  createRoom,
  expectError,
  mintChatToken,
  mintRtcToken,
  projectWithKeys,
  registerWebhook,
  sendMessage,
  type TestUser,
} from '../support/factories.js';
import { connectRealtime, connectSignaling } from '../support/socket-client.js';
import { withTestDatabase } from '../support/test-database.js';
import { useTestServer } from '../support/use-test-server.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const t = useTestServer();
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
  receiver.reply({ status: 500 }); // deliveries fail: each has an attempt, and stays due for a retry
});
afterAll(() => receiver.close());

const snapshots = (projectId: string, environment = 'staging', rest = '') =>
  `/v1/projects/${projectId}/environment/snapshots${rest}?environment=${environment}`;

/** Staging in use, all through the API: chat with a reaction, a read position and an attachment, a live stream, a
 * room with telemetry, a webhook endpoint with a failed delivery, a failed request. */
async function populate(projectId: string, owner: TestUser, key: string) {
  const room = await createRoom(t.api, key);
  const rtc = (await mintRtcToken(t.api, key, room.id)).token;
  await t.api.post('/v1/telemetry/events', { token: rtc, body: { events: [{ type: 'a' }] } });
  const alice = await mintChatToken(t.api, key, 'alice');
  const conversation = await createConversation(t.api, alice, { members: ['bob'] });
  const first = await sendMessage(t.api, alice, conversation.id, { text: 'one' });
  await sendMessage(t.api, alice, conversation.id, { text: 'two' });
  await t.api.post(`/v1/chat/messages/${first.id}/reactions`, { token: alice, body: { emoji: '👍' } });
  await t.api.post(`/v1/chat/messages/${first.id}/read`, { token: alice });
  const declared = await t.api.post(`/v1/chat/conversations/${conversation.id}/attachments`, {
    token: alice,
    body: { filename: 'notes.txt', contentType: 'text/plain', size: 5 },
  });
  await fetch(declared.body.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hello' });
  expect((await t.api.post(`/v1/chat/attachments/${declared.body.id}/complete`, { token: alice })).status).toBe(200);
  await createLiveStream(t.api, key);
  await registerWebhook(t.api, projectId, owner, { url: receiver.url, environment: 'staging' });
  await createRoom(t.api, key); // after the endpoint: its room.created is delivered, and fails
  await t.server.runDueWebhooks();
  expect((await t.api.get('/v1/rooms/room_missing', { token: key })).status).toBe(404); // an error record
  return { room, alice, conversation, attachmentId: declared.body.id as string };
}

/** The rows of the environment's runtime tables as stored, table by table, in a stable order. */
const RUNTIME_ROWS: Record<string, string> = {
  rooms: 'project_id = ? AND environment = ?',
  conversations: 'project_id = ? AND environment = ?',
  conversation_members: 'conversation_id IN (SELECT id FROM conversations WHERE project_id = ? AND environment = ?)',
  messages: 'conversation_id IN (SELECT id FROM conversations WHERE project_id = ? AND environment = ?)',
  reactions:
    'message_id IN (SELECT m.id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.project_id = ? AND c.environment = ?)',
  read_states: 'conversation_id IN (SELECT id FROM conversations WHERE project_id = ? AND environment = ?)',
  attachments: 'project_id = ? AND environment = ?',
  live_streams: 'project_id = ? AND environment = ?',
  live_stream_participants: 'stream_id IN (SELECT id FROM live_streams WHERE project_id = ? AND environment = ?)',
  connection_log: 'project_id = ? AND environment = ?',
  webhook_deliveries: 'endpoint_id IN (SELECT id FROM webhook_endpoints WHERE project_id = ? AND environment = ?)',
  webhook_attempts:
    'delivery_id IN (SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.project_id = ? AND e.environment = ?)',
  telemetry_events: 'project_id = ? AND environment = ?',
  error_log: 'project_id = ? AND environment = ?',
};
function storedRows(projectId: string, environment = 'staging') {
  return withTestDatabase(t.server, async (db) => {
    const tables: Record<string, string[]> = {};
    for (const [table, where] of Object.entries(RUNTIME_ROWS)) {
      const rows = await db.query(`SELECT * FROM ${table} WHERE ${where}`, [projectId, environment]);
      tables[table] = rows.map((row) => JSON.stringify(row)).sort();
    }
    return tables;
  });
}

describe('environment snapshots: /v1/projects/{id}/environment/snapshots', () => {
  it('restores exactly the rows and bytes saved, whatever changed meanwhile, and leaves development be', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const staging = await populate(project.id, owner, keys.staging);
    await createRoom(t.api, keys.development);
    const saved = await storedRows(project.id);
    const development = await storedRows(project.id, 'development');
    expect(saved.messages).toHaveLength(2);

    const res = await t.api.post(snapshots(project.id), { token: owner.token, body: { name: 'seeded' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      name: 'seeded',
      environment: 'staging',
      createdAt: expect.any(String),
      createdBy: owner.email,
      sizeBytes: expect.any(Number),
      counts: expect.objectContaining({ rooms: 3, conversations: 2, messages: 2, reactions: 1, attachments: 1 }),
    });
    expect(res.body.counts).toMatchObject({ readStates: 1, liveStreams: 1, webhookDeliveries: 1, webhookAttempts: 1 });
    expect(res.body.counts).toMatchObject({ telemetryEvents: 1, errors: 1 });

    // Meanwhile: a message more, one edited, the room deleted, the attachment deleted, a new room.
    await sendMessage(t.api, staging.alice, staging.conversation.id, { text: 'three' });
    expect((await t.api.delete(`/v1/rooms/${staging.room.id}`, { token: keys.staging })).status).toBe(204);
    await t.api.delete(`/v1/chat/attachments/${staging.attachmentId}`, { token: staging.alice });
    await createRoom(t.api, keys.staging);
    expect(await storedRows(project.id)).not.toEqual(saved);

    const restored = await t.api.post(snapshots(project.id, 'staging', '/seeded/restore'), { token: owner.token });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toMatchObject({ environment: 'staging', snapshot: 'seeded', restored: res.body.counts });
    expect(restored.body.removed.messages).toBe(3);
    expect(await storedRows(project.id)).toEqual(saved);
    expect(await storedRows(project.id, 'development')).toEqual(development);
    expect((await storedAttachment(t.server, project.id, staging.attachmentId))?.toString()).toBe('hello');
    const listed = await t.api.get(`/v1/chat/conversations/${staging.conversation.id}/messages`, {
      token: staging.alice,
    });
    expect(listed.body.data.map((m: { text: string }) => m.text).sort()).toEqual(['one', 'two']);

    // A snapshot restores again, as often as asked.
    await sendMessage(t.api, staging.alice, staging.conversation.id, { text: 'four' });
    expect((await t.api.post(snapshots(project.id, 'staging', '/seeded/restore'), { token: owner.token })).status).toBe(
      200,
    );
    expect(await storedRows(project.id)).toEqual(saved);
  });

  it('closes the environment’s sockets with 4205 on restore and tells dashboards watching', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const room = await createRoom(t.api, keys.staging);
    await t.api.post(snapshots(project.id), { token: owner.token, body: { name: 'empty' } });
    const chat = connectRealtime(t.server.url, await mintChatToken(t.api, keys.staging, 'alice'));
    await chat.next('connected');
    const participant = connectSignaling(t.server.url, (await mintRtcToken(t.api, keys.staging, room.id)).token);
    await participant.next('joined');
    const watching = new AbortController();
    const stream = await fetch(`${t.server.url}/v1/projects/${project.id}/events?environment=staging`, {
      headers: { authorization: `Bearer ${owner.token}` },
      signal: watching.signal,
    });
    try {
      expect(
        (await t.api.post(snapshots(project.id, 'staging', '/empty/restore'), { token: owner.token })).status,
      ).toBe(200);
      const closed = { code: 4205, reason: 'environment reset' };
      expect(await chat.closed).toEqual(closed);
      expect(await participant.closed).toEqual(closed);
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      while (!text.includes('"snapshot":"empty"')) text += new TextDecoder().decode((await reader.read()).value);
      expect(text).toContain('event: environment.reset');
    } finally {
      watching.abort();
    }
  });

  it('lists, refuses a taken name unless replacing, deletes, and audits each change', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const save = (body: object) => t.api.post(snapshots(project.id), { token: owner.token, body });
    expect((await save({ name: 'b-empty' })).status).toBe(201);
    await createRoom(t.api, keys.staging);
    expect((await save({ name: 'a-room' })).status).toBe(201);
    expectError(await save({ name: 'a-room' }), 409, 'SERVICE_SNAPSHOT_EXISTS');
    expect((await save({ name: 'a-room', replace: true })).status).toBe(201);
    expectError(await save({ name: '../x' }), 400, 'SERVICE_VALIDATION_FAILED');

    const list = await t.api.get(snapshots(project.id), { token: owner.token });
    expect(list.body.data.map((s: { name: string; counts: { rooms: number } }) => [s.name, s.counts.rooms])).toEqual([
      ['a-room', 1],
      ['b-empty', 0],
    ]);
    expect((await t.api.get(snapshots(project.id, 'development'), { token: owner.token })).body.data).toEqual([]);

    expect((await t.api.delete(snapshots(project.id, 'staging', '/b-empty'), { token: owner.token })).status).toBe(204);
    for (const res of [
      await t.api.delete(snapshots(project.id, 'staging', '/b-empty'), { token: owner.token }),
      await t.api.post(snapshots(project.id, 'staging', '/b-empty/restore'), { token: owner.token }),
      await t.api.post(snapshots(project.id, 'development', '/a-room/restore'), { token: owner.token }),
    ])
      expectError(res, 404, 'SERVICE_SNAPSHOT_NOT_FOUND');
    expect((await t.api.post(snapshots(project.id, 'staging', '/a-room/restore'), { token: owner.token })).status).toBe(
      200,
    );

    const log = await t.api.get(`/v1/projects/${project.id}/audit-logs?environment=staging`, { token: owner.token });
    const actions = log.body.data
      .map((entry: { action: string; target: { id: string } }) => [entry.action, entry.target.id])
      .filter(([action]: string[]) => action.startsWith('environment.snapshot'));
    expect(actions).toEqual([
      ['environment.snapshot_restored', 'a-room'],
      ['environment.snapshot_deleted', 'b-empty'],
      ['environment.snapshot_saved', 'a-room'],
      ['environment.snapshot_saved', 'a-room'],
      ['environment.snapshot_saved', 'b-empty'],
    ]);
  });

  it('refuses production (403 SERVICE_PRODUCTION_ENVIRONMENT), which lists none', async () => {
    const { owner, project } = await projectWithKeys(t.api);
    for (const res of [
      await t.api.post(snapshots(project.id, 'production'), { token: owner.token, body: { name: 'x' } }),
      await t.api.post(snapshots(project.id, 'production', '/x/restore'), { token: owner.token }),
      await t.api.delete(snapshots(project.id, 'production', '/x'), { token: owner.token }),
    ])
      expectError(res, 403, 'SERVICE_PRODUCTION_ENVIRONMENT');
    expect((await t.api.get(snapshots(project.id, 'production'), { token: owner.token })).body.data).toEqual([]);
  });
});
