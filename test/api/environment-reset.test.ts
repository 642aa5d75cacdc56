import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { storedAttachment } from '../support/attachment-bytes.js';
import {
  addMember,
  createConversation,
  createLiveStream,
  createRoom,
  expectError,
  mintChatToken,
  mintRtcToken,
  projectWithKeys,
  registerUser,
  registerWebhook,
  sendMessage,
  type TestUser,
} from '../support/factories.js';
import { connectRealtime, connectSignaling, type SocketClient } from '../support/socket-client.js';
import { withTestDatabase } from '../support/test-database.js';
import { useTestServer } from '../support/use-test-server.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const t = useTestServer();
/** Every delivery fails (500) until a test says otherwise: endpoints build up a run of failures. */
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
  receiver.reply({ status: 500 });
});
afterAll(() => receiver.close());
const sockets: SocketClient[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
const open = (socket: SocketClient) => {
  sockets.push(socket);
  return socket;
};

type Env = 'development' | 'staging' | 'production';
const resetPath = (projectId: string, environment?: string) =>
  `/v1/projects/${projectId}/environment/reset${environment ? `?environment=${environment}` : ''}`;

/**
 * One environment in use, everything made through the API: a room with a participant connected and telemetry, a
 * conversation with messages, a reaction, a read position and an attachment (its bytes stored), a chat user
 * connected (typing), a live stream with a viewer, a webhook endpoint with failed deliveries, a failed request.
 */
async function populate(projectId: string, owner: TestUser, key: string, environment: Env) {
  const room = await createRoom(t.api, key);
  const rtc = (await mintRtcToken(t.api, key, room.id)).token;
  expect((await t.api.post('/v1/telemetry/events', { token: rtc, body: { events: [{ type: 'a' }] } })).status).toBe(
    202,
  );
  const participant = open(connectSignaling(t.server.url, rtc));
  await participant.next('joined');

  const alice = await mintChatToken(t.api, key, 'alice');
  const conversation = await createConversation(t.api, alice, { members: ['bob'] });
  const messages = [];
  for (const text of ['one', 'two', 'three']) messages.push(await sendMessage(t.api, alice, conversation.id, { text }));
  await t.api.post(`/v1/chat/messages/${messages[0].id}/reactions`, { token: alice, body: { emoji: '👍' } });
  await t.api.post(`/v1/chat/messages/${messages[2].id}/read`, { token: alice });
  const declared = await t.api.post(`/v1/chat/conversations/${conversation.id}/attachments`, {
    token: alice,
    body: { filename: 'notes.txt', contentType: 'text/plain', size: 5 },
  });
  await fetch(declared.body.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hello' });
  expect((await t.api.post(`/v1/chat/attachments/${declared.body.id}/complete`, { token: alice })).status).toBe(200);
  /** The attachment's stored bytes: a file on SQLite, rows on PostgreSQL. */
  const file = () => storedAttachment(t.server, projectId, declared.body.id);
  expect(await file()).toBeDefined();
  const chat = open(connectRealtime(t.server.url, alice));
  await chat.next('connected');
  chat.send({ type: 'typing.start', conversationId: conversation.id });

  const stream = await createLiveStream(t.api, key);
  await t.api.post(`/v1/live-streams/${stream.id}/viewer-tokens`, { token: key, body: { identity: 'viewer-1' } });
  const webhook = await registerWebhook(t.api, projectId, owner, { url: receiver.url, environment });
  await createRoom(t.api, key); // after the endpoint: its room.created is delivered, and fails
  await t.server.runDueWebhooks();
  expect((await t.api.get('/v1/rooms/room_missing', { token: key })).status).toBe(404); // an error record
  return { room, rtc, conversation, messages, file, participant, chat, stream, webhook, alice };
}

/** Rows of every table with an environment column, by table, for one project environment (read from the database). */
function rowsOf(projectId: string, environment: Env): Promise<Record<string, number>> {
  return withTestDatabase(t.server, async (db) => {
    const counts: [string, number][] = [];
    for (const table of await db.tables()) {
      if (!(await db.columns(table)).includes('environment')) continue;
      const [{ n }] = await db.query<{ n: number }>(
        `SELECT count(*) AS n FROM ${table} WHERE project_id = ? AND environment = ?`,
        [projectId, environment],
      );
      counts.push([table, n]);
    }
    return Object.fromEntries(counts);
  });
}

/** A project whose staging is about to be reset, beside its development and another project's staging, all in use. */
async function stagingBesideOthers() {
  const { owner, project, keys } = await projectWithKeys(t.api);
  const staging = await populate(project.id, owner, keys.staging, 'staging');
  const development = await populate(project.id, owner, keys.development, 'development');
  const other = await projectWithKeys(t.api);
  const elsewhere = await populate(other.project.id, other.owner, other.keys.staging, 'staging');
  return { owner, project, keys, staging, development, other, elsewhere };
}

/** `rowsOf` for comparing before and after: metrics are written every few seconds, at no moment a test knows. */
const rowsBut = async (projectId: string, environment: Env) => ({
  ...(await rowsOf(projectId, environment)),
  metric_buckets: 0,
});

describe('environment reset: POST /v1/projects/{id}/environment/reset', () => {
  it('empties the environment of its runtime data, files too, and leaves other environments and projects be', async () => {
    const { owner, project, keys, staging, development, other, elsewhere } = await stagingBesideOthers();
    const before = {
      development: await rowsBut(project.id, 'development'),
      elsewhere: await rowsBut(other.project.id, 'staging'),
    };

    const res = await t.api.post(resetPath(project.id, 'staging'), { token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      environment: 'staging',
      resetAt: expect.any(String),
      removed: {
        rooms: 3, // the room, the stream's, and the one made after the endpoint
        conversations: 2, // the conversation and the stream's
        conversationMembers: 3, // alice and bob, and the stream's viewer in its chat
        messages: 3,
        reactions: 1,
        readStates: 1,
        attachments: 1,
        liveStreams: 1,
        liveStreamParticipants: 1,
        connections: 2,
        webhookDeliveries: 1,
        webhookAttempts: 1,
        telemetryEvents: 1,
        metrics: expect.any(Number), // what was flushed to the table by then; the rest is dropped in memory
        errors: 1,
      },
    });

    // Nothing of staging is left in any environment-scoped table but its keys, endpoints and audit log.
    expect(await rowsOf(project.id, 'staging')).toMatchObject({
      rooms: 0,
      conversations: 0,
      messages: 0,
      attachments: 0,
      live_streams: 0,
      connection_log: 0,
      error_log: 0,
      metric_buckets: 0,
      telemetry_events: 0,
      webhook_deliveries: 0,
      api_keys: 1,
      webhook_endpoints: 1,
    });
    const left = Object.entries(await rowsOf(project.id, 'staging')).filter(([, n]) => n > 0);
    expect(left.map(([table]) => table).sort()).toEqual(['api_keys', 'audit_log', 'webhook_endpoints']);
    expect(await staging.file()).toBeUndefined();
    // What the dashboard reads of it, before the requests below are recorded in its new life.
    const dashboard = (path: string) => t.api.get(`/v1/projects/${project.id}${path}`, { token: owner.token });
    expect((await dashboard('/errors?environment=staging')).body.data).toEqual([]);
    expect((await dashboard(`/webhooks/${staging.webhook.id}/deliveries?environment=staging`)).body.data).toEqual([]);
    const metrics = (await dashboard('/metrics?environment=staging&window=15m')).body.series;
    for (const series of [metrics.requests, metrics.messages, metrics.connections, metrics.telemetryEvents])
      expect(series.every((point: { value: number }) => point.value === 0)).toBe(true);

    // Through the API as well: gone, not forbidden.
    const key = keys.staging;
    expect((await t.api.get('/v1/rooms', { token: key })).body.data).toEqual([]);
    expect((await t.api.get('/v1/chat/conversations', { token: key })).body.data).toEqual([]);
    expectError(
      await t.api.get(`/v1/chat/messages/${staging.messages[0].id}`, { token: key }),
      404,
      'SERVICE_MESSAGE_NOT_FOUND',
    );
    expect((await t.api.get('/v1/live-streams', { token: key })).body.data).toEqual([]);

    // Development and the other project: every row still there, files too.
    expect(await rowsBut(project.id, 'development')).toEqual(before.development);
    expect(await rowsBut(other.project.id, 'staging')).toEqual(before.elsewhere);
    expect(await development.file()).toBeDefined();
    expect(await elsewhere.file()).toBeDefined();
    const devMetrics = (await dashboard('/metrics?environment=development&window=15m')).body.series;
    expect(devMetrics.messages.some((point: { value: number }) => point.value > 0)).toBe(true);
  });

  it('closes the environment’s realtime and signaling sockets with 4205, forgets them at once, and no others', async () => {
    const { owner, project, keys, staging, development, elsewhere } = await stagingBesideOthers();
    const dashboard = (path: string) => t.api.get(`/v1/projects/${project.id}${path}`, { token: owner.token });

    expect((await t.api.post(resetPath(project.id, 'staging'), { token: owner.token })).status).toBe(200);
    // Forgotten before the sockets have finished closing: nothing of staging is online any more.
    expect((await dashboard('/chat/connections?environment=staging')).body.data).toEqual([]);
    expect((await dashboard('/diagnostics?environment=staging')).body.connections).toEqual({
      signaling: 0,
      realtime: 0,
    });
    const closed = { code: 4205, reason: 'environment reset' };
    expect(await staging.chat.closed).toEqual(closed);
    expect(await staging.participant.closed).toEqual(closed);

    // Development's and the other project's staging sockets stay open, with their state.
    for (const { chat, participant } of [development, elsewhere]) {
      chat.send({ type: 'ping' });
      await chat.next('pong');
      participant.send({ type: 'ping' });
      await participant.next('pong');
    }
    expect((await dashboard('/chat/connections?environment=development')).body.data).toHaveLength(1);
    const participants = await t.api.get(`/v1/rooms/${development.room.id}/participants`, { token: keys.development });
    expect(participants.body.data.map((p: { identity: string }) => p.identity)).toEqual(['alice']);
    const typing = await t.api.get(`/v1/chat/conversations/${development.conversation.id}/typing`, {
      token: development.alice,
    });
    expect(typing.body.data.map((entry: { userId: string }) => entry.userId)).toEqual(['alice']);

    // The environment works on, empty: an old chat token connects again and finds no conversation.
    const again = open(connectRealtime(t.server.url, staging.alice));
    expect((await again.next('connected')).conversationIds).toEqual([]);
    // An RTC token of before finds its room gone.
    expect((await open(connectSignaling(t.server.url, staging.rtc)).closed).code).toBe(4404);
  });

  it('keeps keys, webhook endpoints (failures counted from 0 again), members, the test clock and faults, which work on', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const viewer = await registerUser(t.api);
    await addMember(t.api, project.id, owner, viewer, 'VIEWER');
    const staging = await populate(project.id, owner, keys.staging, 'staging');
    const development = await populate(project.id, owner, keys.development, 'development');
    const endpoint = (environment: Env, id: string) =>
      t.api.get(`/v1/projects/${project.id}/webhooks/${id}?environment=${environment}`, { token: owner.token });
    expect((await endpoint('staging', staging.webhook.id)).body.consecutiveFailures).toBeGreaterThan(0);
    // The environment's settings for testing: its test clock and an injected fault (harmless here: 1 ms of latency).
    const settings = `/v1/projects/${project.id}/environment`;
    const advanced = await t.api.post(`${settings}/clock/advance?environment=staging`, {
      token: owner.token,
      body: { seconds: 3600 },
    });
    expect(advanced.status).toBe(200);
    const fault = await t.api.post(`${settings}/faults?environment=staging`, {
      token: owner.token,
      body: { kind: 'api.latency', delayMs: 1 },
    });
    expect(fault.status).toBe(201);

    expect((await t.api.post(resetPath(project.id, 'staging'), { token: owner.token })).status).toBe(200);
    const clock = await t.api.get(`${settings}/clock?environment=staging`, { token: owner.token });
    expect(clock.body.offsetMs).toBeGreaterThanOrEqual(3_600_000);
    const faults = await t.api.get(`${settings}/faults?environment=staging`, { token: owner.token });
    expect(faults.body.data.map((f: { id: string }) => f.id)).toEqual([fault.body.id]);
    expect((await endpoint('staging', staging.webhook.id)).body).toMatchObject({
      enabled: true,
      consecutiveFailures: 0,
    });
    const devFailures = (await endpoint('development', development.webhook.id)).body.consecutiveFailures;
    expect(devFailures).toBeGreaterThan(0); // another environment's run of failures is its own

    // The key still authenticates and creates; the endpoint still receives what happens next.
    receiver.reply({ status: 200 });
    try {
      const arrived = receiver.requests.length;
      const room = await createRoom(t.api, keys.staging);
      await t.server.runDueWebhooks();
      const [delivery] = await receiver.waitForRequests(arrived + 1);
      expect(delivery).toBeDefined();
      const sent = receiver.requests.slice(arrived).map((r) => JSON.parse(r.rawBody.toString()));
      expect(sent).toContainEqual(
        expect.objectContaining({ type: 'room.created', data: { room: expect.objectContaining({ id: room.id }) } }),
      );
    } finally {
      receiver.reply({ status: 500 });
    }
    const listed = await t.api.get(`/v1/projects/${project.id}/api-keys?environment=staging`, { token: viewer.token });
    expect(listed.body.data).toHaveLength(1);
    const members = await t.api.get(`/v1/projects/${project.id}/members`, { token: viewer.token });
    expect(members.body.data.map((m: { role: string }) => m.role).sort()).toEqual(['OWNER', 'VIEWER']);
  });

  it('records the reset in the audit log, with what it removed and who did it', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    await populate(project.id, owner, keys.development, 'development');
    const res = await t.api.post(resetPath(project.id), { token: owner.token }); // development when not named
    expect(res.body.environment).toBe('development');
    const log = await t.api.get(`/v1/projects/${project.id}/audit-logs?action=environment.reset`, {
      token: owner.token,
    });
    expect(log.body.data).toEqual([
      expect.objectContaining({
        action: 'environment.reset',
        environment: 'development',
        actor: expect.objectContaining({ type: 'user', id: owner.id, email: owner.email }),
        target: { type: 'environment', id: 'development' },
        details: { removed: res.body.removed },
      }),
    ]);
  });

  it('refuses production with 403 SERVICE_PRODUCTION_ENVIRONMENT and changes nothing', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const production = await populate(project.id, owner, keys.production, 'production');
    const before = await rowsBut(project.id, 'production');
    for (const environment of ['production', 'PRODUCTION'])
      expectError(
        await t.api.post(resetPath(project.id, environment), { token: owner.token }),
        403,
        'SERVICE_PRODUCTION_ENVIRONMENT',
      );
    expect(await rowsBut(project.id, 'production')).toEqual(before);
    production.chat.send({ type: 'ping' });
    await production.chat.next('pong');
    const log = await t.api.get(`/v1/projects/${project.id}/audit-logs?action=environment.reset`, {
      token: owner.token,
    });
    expect(log.body.data).toEqual([]);
  });

  it('is for OWNER and ADMIN (project:write): other roles get 403, non-members 404, keys 401', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const team: Record<string, TestUser> = {};
    for (const role of ['ADMIN', 'DEVELOPER', 'VIEWER', 'BILLING']) {
      team[role] = await registerUser(t.api);
      await addMember(t.api, project.id, owner, team[role], role);
    }
    for (const role of ['DEVELOPER', 'VIEWER', 'BILLING']) {
      const res = await t.api.post(resetPath(project.id, 'staging'), { token: team[role].token });
      expectError(res, 403, 'SERVICE_PERMISSION_DENIED');
      expect(res.body.message).toContain('project:write');
    }
    expect((await t.api.post(resetPath(project.id, 'staging'), { token: team.ADMIN.token })).status).toBe(200);
    const stranger = await registerUser(t.api);
    expectError(
      await t.api.post(resetPath(project.id, 'staging'), { token: stranger.token }),
      404,
      'SERVICE_PROJECT_NOT_FOUND',
    );
    expectError(
      await t.api.post(resetPath(project.id, 'staging'), { token: keys.staging }),
      401,
      'SERVICE_UNAUTHENTICATED',
    );
    expectError(await t.api.post(resetPath(project.id, 'staging')), 401, 'SERVICE_UNAUTHENTICATED');
  });

  it('refuses an unknown environment or query field with 400, never defaulting', async () => {
    const { owner, project } = await projectWithKeys(t.api);
    for (const query of ['?environment=prod', '?environment=qa', '?environment=staging&force=1']) {
      expectError(
        await t.api.post(`/v1/projects/${project.id}/environment/reset${query}`, { token: owner.token }),
        400,
        'SERVICE_VALIDATION_FAILED',
      );
    }
  });
});
