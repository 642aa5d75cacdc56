import { afterEach, describe, expect, it } from 'vitest';
import {
  addMember,
  createRoom,
  expectError,
  mintChatToken,
  mintRtcToken,
  projectWithKeys,
  registerUser,
} from '../support/factories.js';
import { connectRealtime, connectSignaling, type SocketClient } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';
import { eventually } from '../support/wait.js';

const t = useTestServer();
const sockets: SocketClient[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
const open = (socket: SocketClient) => {
  sockets.push(socket);
  return socket;
};

const faultsPath = (projectId: string, environment = 'staging') =>
  `/v1/projects/${projectId}/environment/faults?environment=${environment}`;

async function addFault(projectId: string, token: string, body: Record<string, unknown>, environment = 'staging') {
  const res = await t.api.post(faultsPath(projectId, environment), { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; kind: string; percent: number; delayMs: number | null; expiresAt: string };
}

/** How long a call takes, in milliseconds, with its answer. */
async function timed<T>(call: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await call();
  return [result, performance.now() - started];
}

describe('fault rules: /v1/projects/{id}/environment/faults', () => {
  it('adds, lists (newest first, in force only), removes and clears, each change audited', async () => {
    const { owner, project } = await projectWithKeys(t.api);
    const before = Date.now();
    const failure = await addFault(project.id, owner.token, { kind: 'webhook.failure', percent: 30 });
    expect(failure).toEqual({
      id: expect.stringMatching(/^flt_[0-9A-Z]{26}$/),
      environment: 'staging',
      kind: 'webhook.failure',
      percent: 30,
      delayMs: null,
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    // Ten minutes by default.
    const lifetime = Date.parse(failure.expiresAt) - before;
    expect(lifetime).toBeGreaterThanOrEqual(600_000);
    expect(lifetime).toBeLessThan(605_000);
    const latency = await addFault(project.id, owner.token, {
      kind: 'api.latency',
      delayMs: 250,
      expiresInSeconds: 3600,
    });
    expect(latency).toMatchObject({ percent: 100, delayMs: 250 });

    const list = async (environment = 'staging') =>
      (await t.api.get(faultsPath(project.id, environment), { token: owner.token })).body.data.map(
        (f: { id: string }) => f.id,
      );
    expect(await list()).toEqual([latency.id, failure.id]);
    expect(await list('development')).toEqual([]);
    expect(await list('production')).toEqual([]);

    const removed = await t.api.delete(
      `/v1/projects/${project.id}/environment/faults/${failure.id}?environment=staging`,
      {
        token: owner.token,
      },
    );
    expect(removed.status).toBe(204);
    expect(await list()).toEqual([latency.id]);
    expectError(
      await t.api.delete(`/v1/projects/${project.id}/environment/faults/${failure.id}?environment=staging`, {
        token: owner.token,
      }),
      404,
      'SERVICE_FAULT_NOT_FOUND',
    );
    // Another environment's fault is not found from this one.
    expectError(
      await t.api.delete(`/v1/projects/${project.id}/environment/faults/${latency.id}?environment=development`, {
        token: owner.token,
      }),
      404,
      'SERVICE_FAULT_NOT_FOUND',
    );
    expect((await t.api.delete(faultsPath(project.id), { token: owner.token })).body).toEqual({ removed: 1 });
    expect(await list()).toEqual([]);
    expect((await t.api.delete(faultsPath(project.id), { token: owner.token })).body).toEqual({ removed: 0 });

    const log = await t.api.get(`/v1/projects/${project.id}/audit-logs?environment=staging`, { token: owner.token });
    const entries = log.body.data.filter((e: { action: string }) => e.action.startsWith('environment.fault'));
    expect(entries.map((e: any) => [e.action, e.actor.id, e.target])).toEqual([
      ['environment.fault_removed', owner.id, { type: 'environment', id: 'staging' }],
      ['environment.fault_removed', owner.id, { type: 'environment', id: 'staging' }],
      ['environment.fault_added', owner.id, { type: 'environment', id: 'staging' }],
      ['environment.fault_added', owner.id, { type: 'environment', id: 'staging' }],
    ]);
    expect(entries[3].details).toMatchObject({ faultId: failure.id, kind: 'webhook.failure', percent: 30 });
    expect(entries[1].details).toEqual({ faults: [{ id: failure.id, kind: 'webhook.failure' }] });
  });

  it('validates the rule: known kinds, percent 1–100, delayMs where it applies, an expiry of at most a day', async () => {
    const { owner, project } = await projectWithKeys(t.api);
    for (const body of [
      { kind: 'webhook.explode' },
      { kind: 'webhook.failure', percent: 0 },
      { kind: 'webhook.failure', percent: 101 },
      { kind: 'webhook.failure', percent: 12.5 },
      { kind: 'webhook.failure', delayMs: 100 },
      { kind: 'api.latency' },
      { kind: 'webhook.delay', delayMs: 60_001 },
      { kind: 'api.unavailable', expiresInSeconds: 86_401 },
      { kind: 'api.unavailable', expiresInSeconds: 0 },
      { kind: 'api.unavailable', extra: true },
      {},
    ]) {
      const res = await t.api.post(faultsPath(project.id), { token: owner.token, body });
      expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
    }
    const res = await t.api.post(faultsPath(project.id), { token: owner.token, body: { kind: 'api.latency' } });
    expect(res.body.fields).toEqual([{ path: 'delayMs', message: 'delayMs is required for api.latency' }]);
  });

  it('refuses production with 403 SERVICE_PRODUCTION_ENVIRONMENT, writing nothing', async () => {
    const { owner, project } = await projectWithKeys(t.api);
    const token = owner.token;
    for (const res of [
      await t.api.post(faultsPath(project.id, 'production'), { token, body: { kind: 'api.unavailable' } }),
      await t.api.post(faultsPath(project.id, 'PRODUCTION'), { token, body: { kind: 'api.unavailable' } }),
      await t.api.delete(faultsPath(project.id, 'production'), { token }),
      await t.api.delete(`/v1/projects/${project.id}/environment/faults/flt_x?environment=production`, { token }),
      await t.api.post(`/v1/projects/${project.id}/environment/sockets/drop?environment=production`, {
        token,
        body: {},
      }),
    ]) {
      expectError(res, 403, 'SERVICE_PRODUCTION_ENVIRONMENT');
    }
    expect((await t.api.get(faultsPath(project.id, 'production'), { token })).body).toEqual({ data: [] });
    const log = await t.api.get(`/v1/projects/${project.id}/audit-logs?environment=production`, { token });
    expect(log.body.data.filter((e: { action: string }) => e.action.startsWith('environment.'))).toEqual([]);
  });

  it('lets readers list and only OWNER and ADMIN change (project:write); keys are not accepted', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const viewer = await registerUser(t.api);
    await addMember(t.api, project.id, owner, viewer, 'VIEWER');
    const developer = await registerUser(t.api);
    await addMember(t.api, project.id, owner, developer, 'DEVELOPER');
    expect((await t.api.get(faultsPath(project.id), { token: viewer.token })).status).toBe(200);
    for (const member of [viewer, developer]) {
      const res = await t.api.post(faultsPath(project.id), { token: member.token, body: { kind: 'api.unavailable' } });
      expectError(res, 403, 'SERVICE_PERMISSION_DENIED');
    }
    const stranger = await registerUser(t.api);
    expectError(await t.api.get(faultsPath(project.id), { token: stranger.token }), 404, 'SERVICE_PROJECT_NOT_FOUND');
    expectError(await t.api.get(faultsPath(project.id), { token: keys.staging }), 401, 'SERVICE_UNAUTHENTICATED');
  });
});

describe('injected API faults, as an app calling the REST API sees them', () => {
  it('api.unavailable: the environment’s keys and tokens get 503 with Retry-After; other environments and the dashboard do not', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const chat = await mintChatToken(t.api, keys.staging, 'alice');
    const room = await createRoom(t.api, keys.staging);
    const rtc = (await mintRtcToken(t.api, keys.staging, room.id)).token;
    await addFault(project.id, owner.token, { kind: 'api.unavailable' });

    for (const res of [
      await t.api.get('/v1/rooms', { token: keys.staging }),
      await t.api.post('/v1/rooms', { token: keys.staging, body: { name: 'during the fault' } }),
      await t.api.get('/v1/chat/conversations', { token: chat }),
      await t.api.post('/v1/telemetry/events', { token: rtc, body: { events: [{ type: 'a' }] } }),
    ]) {
      expectError(res, 503, 'SERVICE_FAULT_INJECTED');
      expect(res.headers.get('retry-after')).toBe('1');
    }
    // Development's key, and the dashboard's session routes of staging itself, are answered as usual; the POST was
    // refused before its handler ran (no room "during the fault").
    expect((await t.api.get('/v1/rooms', { token: keys.development })).status).toBe(200);
    const dashboard = await t.api.get(`/v1/projects/${project.id}/rooms?environment=staging`, { token: owner.token });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.data.map((r: { name: string }) => r.name)).toEqual([room.name]);
    // The refused calls are in staging's error log (written in the background), as any failed runtime request.
    await eventually(
      () => t.api.get(`/v1/projects/${project.id}/errors?environment=staging`, { token: owner.token }),
      (res) => res.body.data.filter((e: { code: string }) => e.code === 'SERVICE_FAULT_INJECTED').length === 4,
    );

    // Switched off from the dashboard: the key works at once.
    expect((await t.api.delete(faultsPath(project.id), { token: owner.token })).body).toEqual({ removed: 1 });
    expect((await t.api.get('/v1/rooms', { token: keys.staging })).status).toBe(200);
  });

  it('api.latency: the environment’s calls wait delayMs first; other environments’ do not', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    await addFault(project.id, owner.token, { kind: 'api.latency', delayMs: 400 });
    const [slow, slowMs] = await timed(() => t.api.get('/v1/rooms', { token: keys.staging }));
    expect(slow.status).toBe(200);
    expect(slowMs).toBeGreaterThanOrEqual(390);
    const [fast, fastMs] = await timed(() => t.api.get('/v1/rooms', { token: keys.development }));
    expect(fast.status).toBe(200);
    expect(fastMs).toBeLessThan(390);
    const [dashboard, dashboardMs] = await timed(() =>
      t.api.get(`/v1/projects/${project.id}/rooms?environment=staging`, { token: owner.token }),
    );
    expect(dashboard.status).toBe(200);
    expect(dashboardMs).toBeLessThan(390);
  });

  it('stops applying once expired', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    await addFault(project.id, owner.token, { kind: 'api.unavailable', expiresInSeconds: 1 });
    expect((await t.api.get('/v1/rooms', { token: keys.staging })).status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await t.api.get('/v1/rooms', { token: keys.staging })).status).toBe(200);
    expect((await t.api.get(faultsPath(project.id), { token: owner.token })).body).toEqual({ data: [] });
  });
});

describe('dropping sockets: POST /v1/projects/{id}/environment/sockets/drop', () => {
  async function connected(key: string) {
    const chat = open(connectRealtime(t.server.url, await mintChatToken(t.api, key, 'alice')));
    await chat.next('connected');
    const room = await createRoom(t.api, key);
    const participant = open(connectSignaling(t.server.url, (await mintRtcToken(t.api, key, room.id)).token));
    await participant.next('joined');
    return { chat, participant };
  }
  const dropPath = (projectId: string) => `/v1/projects/${projectId}/environment/sockets/drop?environment=staging`;

  it('closes the environment’s realtime and signaling sockets with 4206 "fault injected", no others, audited', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const staging = await connected(keys.staging);
    const development = await connected(keys.development);

    const res = await t.api.post(dropPath(project.id), { token: owner.token, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ closed: 2 });
    const closed = { code: 4206, reason: 'fault injected' };
    expect(await staging.chat.closed).toEqual(closed);
    expect(await staging.participant.closed).toEqual(closed);
    development.chat.send({ type: 'ping' });
    await development.chat.next('pong');
    development.participant.send({ type: 'ping' });
    await development.participant.next('pong');

    // Nothing is lost: the same token connects again.
    const again = open(connectRealtime(t.server.url, await mintChatToken(t.api, keys.staging, 'alice')));
    await again.next('connected');

    const log = await t.api.get(`/v1/projects/${project.id}/audit-logs?action=environment.sockets_dropped`, {
      token: owner.token,
    });
    expect(log.body.data).toEqual([
      expect.objectContaining({ environment: 'staging', details: { percent: 100, kind: 'all' } }),
    ]);
  });

  it('closes only the kind asked for', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const staging = await connected(keys.staging);
    const res = await t.api.post(dropPath(project.id), { token: owner.token, body: { kind: 'signaling' } });
    expect(res.body).toEqual({ closed: 1 });
    expect((await staging.participant.closed).code).toBe(4206);
    staging.chat.send({ type: 'ping' });
    await staging.chat.next('pong');
    expectError(
      await t.api.post(dropPath(project.id), { token: owner.token, body: { kind: 'everything' } }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
  });
});
