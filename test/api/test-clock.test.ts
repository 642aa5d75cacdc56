import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createConversation,
  createKey,
  createRoom,
  expectError,
  projectWithKeys,
  registerUser,
  registerWebhook,
  type TestUser,
} from '../support/factories.js';
import { connectRealtime, connectSignaling, type SocketClient } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';
import { eventually } from '../support/wait.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const t = useTestServer();
const HOUR = 3600;
const clockPath = (projectId: string, environment: string, action = '') =>
  `/v1/projects/${projectId}/environment/clock${action}?environment=${environment}`;

const sockets: SocketClient[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
const open = (socket: SocketClient) => {
  sockets.push(socket);
  return socket;
};

async function advance(projectId: string, owner: TestUser, environment: string, seconds: number) {
  const res = await t.api.post(clockPath(projectId, environment, '/advance'), {
    token: owner.token,
    body: { seconds },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
const read = async (projectId: string, owner: TestUser, environment: string) =>
  (await t.api.get(clockPath(projectId, environment), { token: owner.token })).body;

describe('the environment clock', () => {
  it('is advanced, read and reset; other environments and projects keep real time; each change is audited', async () => {
    const { owner, project } = await projectWithKeys(t.api);
    const other = await projectWithKeys(t.api);
    const before = await read(project.id, owner, 'development');
    expect(before).toEqual({ environment: 'development', now: expect.any(String), offsetMs: 0, advancedAt: null });
    expect(Math.abs(Date.parse(before.now) - Date.now())).toBeLessThan(5000);

    const advanced = await advance(project.id, owner, 'development', 2 * HOUR);
    expect(advanced).toMatchObject({ environment: 'development', offsetMs: 2 * HOUR * 1000 });
    expect(Date.parse(advanced.now) - Date.now()).toBeGreaterThan(2 * HOUR * 1000 - 5000);
    expect(Date.parse(advanced.advancedAt)).toBeLessThanOrEqual(Date.now());
    // Only forward, adding up.
    const again = await advance(project.id, owner, 'development', 90);
    expect(again.offsetMs).toBe((2 * HOUR + 90) * 1000);
    expect(await read(project.id, owner, 'development')).toMatchObject({ offsetMs: (2 * HOUR + 90) * 1000 });

    for (const [projectId, by, environment] of [
      [project.id, owner, 'staging'],
      [project.id, owner, 'production'],
      [other.project.id, other.owner, 'development'],
    ] as const) {
      expect(await read(projectId, by, environment)).toMatchObject({ environment, offsetMs: 0, advancedAt: null });
    }

    const reset = await t.api.delete(clockPath(project.id, 'development'), { token: owner.token });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ environment: 'development', offsetMs: 0, advancedAt: null });
    expect(await read(project.id, owner, 'development')).toMatchObject({ offsetMs: 0, advancedAt: null });

    const log = await t.api.get(`/v1/projects/${project.id}/audit-logs`, { token: owner.token });
    const clockEntries = log.body.data.filter((e: { action: string }) => e.action.startsWith('environment.clock'));
    expect(clockEntries).toEqual([
      expect.objectContaining({
        action: 'environment.clock_reset',
        environment: 'development',
        target: { type: 'environment', id: 'development' },
        details: { offsetMs: (2 * HOUR + 90) * 1000 },
      }),
      expect.objectContaining({ action: 'environment.clock_advanced', details: { seconds: 90, offsetMs: 7290000 } }),
      expect.objectContaining({
        action: 'environment.clock_advanced',
        actor: expect.objectContaining({ type: 'user', id: owner.id }),
        details: { seconds: 2 * HOUR, offsetMs: 7200000 },
      }),
    ]);
  });

  it('refuses to move production’s clock (403), which always reads real time', async () => {
    const { owner, project } = await projectWithKeys(t.api);
    for (const environment of ['production', 'PRODUCTION']) {
      expectError(
        await t.api.post(clockPath(project.id, environment, '/advance'), { token: owner.token, body: { seconds: 60 } }),
        403,
        'SERVICE_PRODUCTION_ENVIRONMENT',
      );
      expectError(
        await t.api.delete(clockPath(project.id, environment), { token: owner.token }),
        403,
        'SERVICE_PRODUCTION_ENVIRONMENT',
      );
    }
    expect(await read(project.id, owner, 'production')).toMatchObject({ offsetMs: 0, advancedAt: null });
    const log = await t.api.get(`/v1/projects/${project.id}/audit-logs`, { token: owner.token });
    expect(log.body.data.filter((e: { action: string }) => e.action.startsWith('environment.clock'))).toEqual([]);
  });

  it('takes a whole number of seconds from 1 to 400 days, from project:write only', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    for (const body of [
      {},
      { seconds: 0 },
      { seconds: -5 },
      { seconds: 1.5 },
      { seconds: '60' },
      { seconds: 400 * 86400 + 1 },
    ])
      expectError(
        await t.api.post(clockPath(project.id, 'staging', '/advance'), { token: owner.token, body }),
        400,
        'SERVICE_VALIDATION_FAILED',
      );
    expect((await advance(project.id, owner, 'staging', 400 * 86400)).offsetMs).toBe(400 * 86400 * 1000);

    const developer = await registerUser(t.api);
    const viewer = await registerUser(t.api);
    await addMember(t.api, project.id, owner, developer, 'DEVELOPER');
    await addMember(t.api, project.id, owner, viewer, 'VIEWER');
    for (const member of [developer, viewer]) {
      expectError(
        await t.api.post(clockPath(project.id, 'staging', '/advance'), { token: member.token, body: { seconds: 1 } }),
        403,
        'SERVICE_PERMISSION_DENIED',
      );
      expectError(
        await t.api.delete(clockPath(project.id, 'staging'), { token: member.token }),
        403,
        'SERVICE_PERMISSION_DENIED',
      );
    }
    // Reading is for whoever reads the project.
    expect((await read(project.id, viewer, 'staging')).offsetMs).toBe(400 * 86400 * 1000);
    expectError(
      await t.api.get(clockPath(project.id, 'staging'), { token: keys.staging }),
      401,
      'SERVICE_UNAUTHENTICATED',
    );
  });
});

describe('what follows the clock', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    receiver.reply({ status: 500, body: 'down' });
  });
  afterAll(() => receiver.close());

  it('runs a failing webhook’s whole retry schedule to FAILED at once, in order, with the same event', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const webhook = await registerWebhook(t.api, project.id, owner, { url: receiver.url, events: ['room.created'] });
    const untouched = await registerWebhook(t.api, project.id, owner, {
      url: receiver.url,
      environment: 'staging',
      events: ['room.created'],
    });
    const deliveries = async (hook: { id: string }, environment = 'development') =>
      (
        await t.api.get(`/v1/projects/${project.id}/webhooks/${hook.id}/deliveries?environment=${environment}`, {
          token: owner.token,
        })
      ).body.data;
    await createRoom(t.api, keys.development);
    await createRoom(t.api, keys.staging);
    await eventually(
      async () => [...(await deliveries(webhook)), ...(await deliveries(untouched, 'staging'))],
      (rows) => rows.length === 2 && rows.every((d) => d.attempts === 1),
    );

    const started = Date.now();
    await advance(project.id, owner, 'development', 2 * HOUR);
    const [delivery] = await eventually(
      () => deliveries(webhook),
      ([d]) => d?.status === 'FAILED',
      5000,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(delivery).toMatchObject({ status: 'FAILED', attempts: 7, nextAttemptAt: null, lastStatusCode: 500 });
    expect(delivery.attemptLog.map((a: { number: number }) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const times = delivery.attemptLog.map((a: { attemptedAt: string }) => Date.parse(a.attemptedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const sent = receiver.requests.filter((r) => r.headers['service-event-id'] === delivery.eventId);
    expect(sent).toHaveLength(7);
    // Every attempt counts toward the endpoint's auto-disable (50 in a row).
    const endpoint = await t.api.get(`/v1/projects/${project.id}/webhooks/${webhook.id}?environment=development`, {
      token: owner.token,
    });
    expect(endpoint.body).toMatchObject({ enabled: true, consecutiveFailures: 7 });

    // Staging's clock did not move: its delivery waits for its first retry.
    expect(await deliveries(untouched, 'staging')).toEqual([
      expect.objectContaining({ status: 'PENDING', attempts: 1 }),
    ]);
  });

  it('on reset, keeps pending retries in their place in the schedule: due as far ahead of real time', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const webhook = await registerWebhook(t.api, project.id, owner, { url: receiver.url, events: ['room.created'] });
    await advance(project.id, owner, 'development', 24 * HOUR);
    await createRoom(t.api, keys.development);
    const deliveries = async () =>
      (
        await t.api.get(`/v1/projects/${project.id}/webhooks/${webhook.id}/deliveries?environment=development`, {
          token: owner.token,
        })
      ).body.data;
    const [failed] = await eventually(deliveries, ([d]) => d?.attempts === 1);
    // The first attempt at the environment's time; the retry 10 s after it was due (when the event happened).
    const attemptedAt = Date.parse(failed.attemptLog[0].attemptedAt);
    expect(attemptedAt - Date.now()).toBeGreaterThan(24 * HOUR * 1000 - 5000);
    expect(Date.parse(failed.nextAttemptAt) - attemptedAt).toBeGreaterThan(9000);
    expect(Date.parse(failed.nextAttemptAt) - attemptedAt).toBeLessThanOrEqual(10_000);

    await t.api.delete(clockPath(project.id, 'development'), { token: owner.token });
    const [moved] = await deliveries();
    expect(moved).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(Date.parse(moved.nextAttemptAt)).toBe(Date.parse(failed.nextAttemptAt) - 24 * HOUR * 1000);
    expect(Date.parse(moved.nextAttemptAt) - Date.now()).toBeLessThan(10_000);
  });

  it('expires chat and RTC tokens once the clock passes their expiry, on REST and on the sockets', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const mintChat = async (key: string) =>
      (await t.api.post('/v1/chat/tokens', { token: key, body: { userId: 'alice', ttlSeconds: HOUR } })).body.token;
    const room = await createRoom(t.api, keys.development);
    const mintRtc = async () =>
      (
        await t.api.post(`/v1/rooms/${room.id}/rtc-tokens`, {
          token: keys.development,
          body: { identity: 'alice', ttlSeconds: HOUR },
        })
      ).body.token;
    const chat = await mintChat(keys.development);
    const stagingChat = await mintChat(keys.staging);
    const rtc = await mintRtc();
    await createConversation(t.api, chat);

    await advance(project.id, owner, 'development', 2 * HOUR);
    const conversations = await t.api.get('/v1/chat/conversations', { token: chat });
    expectError(conversations, 401, 'SERVICE_UNAUTHENTICATED');
    expect(conversations.body.message).toMatch(/expired/);
    const telemetry = await t.api.post('/v1/telemetry/events', { token: rtc, body: { events: [{ type: 'a' }] } });
    expectError(telemetry, 401, 'SERVICE_UNAUTHENTICATED');
    expect(telemetry.body.message).toBe('The RTC token has expired.');
    expect((await open(connectRealtime(t.server.url, chat)).closed).reason).toBe('invalid or expired chat token');
    expect((await open(connectSignaling(t.server.url, rtc)).closed).reason).toBe('RTC token expired');

    // Staging's clock did not move; a token minted now lasts its hour of the environment's time.
    expect((await t.api.get('/v1/chat/conversations', { token: stagingChat })).status).toBe(200);
    const fresh = await t.api.post('/v1/chat/tokens', {
      token: keys.development,
      body: { userId: 'alice', ttlSeconds: HOUR },
    });
    expect(Date.parse(fresh.body.expiresAt) - Date.now()).toBeGreaterThan(3 * HOUR * 1000 - 5000);
    expect((await t.api.get('/v1/chat/conversations', { token: fresh.body.token })).status).toBe(200);
    await open(connectSignaling(t.server.url, await mintRtc())).next('joined');
    // Production's tokens keep real time, and so do they all after a reset.
    await t.api.delete(clockPath(project.id, 'development'), { token: owner.token });
    expect((await t.api.get('/v1/chat/conversations', { token: chat })).status).toBe(200);
  });

  it('lets a typing indicator lapse as soon as the clock passes it', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const token = async (userId: string) =>
      (await t.api.post('/v1/chat/tokens', { token: keys.development, body: { userId } })).body.token;
    const alice = await token('alice');
    const conversation = await createConversation(t.api, alice, { members: ['bob'] });
    const bob = open(connectRealtime(t.server.url, await token('bob')));
    await bob.next('connected');
    const typist = open(connectRealtime(t.server.url, alice));
    await typist.next('connected');
    typist.send({ type: 'typing.start', conversationId: conversation.id });
    expect((await bob.next('typing.started')).data).toEqual({ userId: 'alice' });

    const started = Date.now();
    await advance(project.id, owner, 'development', 10);
    expect((await bob.next('typing.stopped', 2000)).data).toEqual({ userId: 'alice' });
    // Well before the 5 s a typing indicator lasts in real time.
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('counts metrics in the environment’s minutes and reads their window up to its now; tells live streams', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    await advance(project.id, owner, 'development', 24 * HOUR);
    const key = (await createKey(t.api, project.id, owner, 'development')).key;
    await createRoom(t.api, key);
    await createRoom(t.api, keys.development);
    const metrics = await eventually(
      async () =>
        (
          await t.api.get(`/v1/projects/${project.id}/metrics?environment=development&window=5m`, {
            token: owner.token,
          })
        ).body,
      (body) => body.series.requests.reduce((n: number, p: { value: number }) => n + p.value, 0) >= 2,
    );
    const last = metrics.series.requests.at(-1);
    expect(Date.parse(last.at) - Date.now()).toBeGreaterThan(24 * HOUR * 1000 - 120_000);
  });
});
