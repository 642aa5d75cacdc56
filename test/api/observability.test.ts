import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_RETENTION, PRUNE_ERRORS_EVERY } from '../../server/observability/recorder.js';
import {
  addMember,
  createRoom,
  expectError,
  mintRtcToken,
  projectWithKeys,
  registerUser,
  registerWebhook,
  sendMessage,
} from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { manualClock, startTestServer, type TestServer } from '../support/server.js';
import { connectRealtime, connectSignaling, type SocketClient } from '../support/socket-client.js';
import { withTestDatabase } from '../support/test-database.js';
import { eventually } from '../support/wait.js';
import { startReceiver } from '../support/webhook-receiver.js';

const MINUTE = 60_000;
// Real time (tokens are checked against it), moved to 1 s into a minute so that buckets are predictable.
const clock = manualClock(Math.ceil(Date.now() / MINUTE) * MINUTE + 1000);
let server: TestServer;
let api: Client;
const open: SocketClient[] = [];
beforeAll(async () => {
  server = await startTestServer({ clock });
  api = client(server.url);
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
afterAll(() => server.dispose());

const READ_ROUTES = ['connections', 'errors', 'metrics', 'diagnostics', 'usage'] as const;

async function setup() {
  const ctx = await projectWithKeys(api);
  const get = (path: string, token = ctx.owner.token) => api.get(`/v1/projects/${ctx.project.id}${path}`, { token });
  return { ...ctx, get };
}

describe('connections', () => {
  it('records a signaling join and leave, with its detail route, in its own environment only', async () => {
    const { keys, get } = await setup();
    const room = await createRoom(api, keys.development);
    const socket = connectSignaling(server.url, (await mintRtcToken(api, keys.development, room.id)).token);
    open.push(socket);
    await socket.next('joined');

    // The connection log is written in the background, after the socket is answered.
    const list = await eventually(
      () => get('/connections'),
      (res) => res.body.data.length > 0,
    );
    expect(list.status).toBe(200);
    expect(list.body.nextCursor).toBeNull();
    expect(list.body.data).toEqual([
      {
        id: expect.stringMatching(/^conn_/),
        kind: 'signaling',
        environment: 'development',
        identity: 'alice',
        roomId: room.id,
        conversationId: null,
        connectedAt: new Date(clock.now()).toISOString(),
        disconnectedAt: null,
        closeCode: null,
        closeReason: null,
        nodeId: expect.stringMatching(/^node_/),
        media: null,
      },
    ]);
    const id = list.body.data[0].id;

    socket.send({ type: 'leave' });
    await socket.closed;
    const closed = await eventually(
      () => get(`/connections/${id}`),
      (res) => res.body.disconnectedAt !== null,
    );
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ id, disconnectedAt: expect.any(String), closeCode: 1000, closeReason: 'left' });

    expectError(await get(`/connections/${id}?environment=staging`), 404, 'SERVICE_CONNECTION_NOT_FOUND');
    expectError(await get('/connections/conn_nope'), 404, 'SERVICE_CONNECTION_NOT_FOUND');
    expect((await get('/connections?environment=STAGING')).body.data).toEqual([]);
  });

  it('records a realtime connect and disconnect under the connectionId the socket was given', async () => {
    const { keys, get } = await setup();
    const token = (await api.post('/v1/chat/tokens', { token: keys.staging, body: { userId: 'bob' } })).body.token;
    const socket = connectRealtime(server.url, token);
    open.push(socket);
    const connected = await socket.next('connected');

    const detail = await eventually(
      () => get(`/connections/${connected.connectionId}?environment=staging`),
      (res) => res.status === 200,
    );
    expect(detail.body).toMatchObject({
      id: connected.connectionId,
      kind: 'realtime',
      environment: 'staging',
      identity: 'bob',
      roomId: null,
      disconnectedAt: null,
    });
    expect((await get('/connections?environment=staging&kind=realtime')).body.data).toHaveLength(1);
    expect((await get('/connections?environment=staging&kind=signaling')).body.data).toHaveLength(0);
    expectError(await get(`/connections/${connected.connectionId}`), 404, 'SERVICE_CONNECTION_NOT_FOUND');

    socket.close();
    const closed = await eventually(
      () => get(`/connections/${connected.connectionId}?environment=staging`),
      (res) => res.body.disconnectedAt !== null,
    );
    expect(closed.body.closeCode).toBe(1005);
  });

  it('pages with limit and cursor, and refuses an unknown kind', async () => {
    const { keys, get } = await setup();
    for (const userId of ['a', 'b', 'c']) {
      const token = (await api.post('/v1/chat/tokens', { token: keys.development, body: { userId } })).body.token;
      const socket = connectRealtime(server.url, token);
      open.push(socket);
      await socket.next('connected');
    }
    // Recorded as each connects, in the background: all three, before paging.
    await eventually(
      () => get('/connections'),
      (res) => res.body.data.length === 3,
    );
    const first = await get('/connections?limit=2');
    expect(first.body.data.map((c: { identity: string }) => c.identity)).toEqual(['c', 'b']);
    const second = await get(`/connections?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((c: { identity: string }) => c.identity)).toEqual(['a']);
    expect(second.body.nextCursor).toBeNull();
    expectError(await get('/connections?kind=webrtc'), 400, 'SERVICE_VALIDATION_FAILED');
  });
});

describe('errors', () => {
  it('records a runtime 404 with the request id of the answer, and its detail route', async () => {
    const { keys, get } = await setup();
    const res = await api.get('/v1/rooms/room_missing', { token: keys.production });
    expectError(res, 404, 'SERVICE_ROOM_NOT_FOUND');

    // Written in the background, after the answer.
    const list = await eventually(
      () => get('/errors?environment=production'),
      (res) => res.body.data?.length > 0,
    );
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        id: expect.stringMatching(/^err_/),
        requestId: res.headers.get('x-request-id'),
        status: 404,
        code: 'SERVICE_ROOM_NOT_FOUND',
        message: res.body.message,
        method: 'GET',
        route: '/v1/rooms/{id}',
        credential: 'key',
        environment: 'production',
        occurredAt: new Date(clock.now()).toISOString(),
      },
    ]);
    const id = list.body.data[0].id;
    expect((await get(`/errors/${id}?environment=production`)).body).toEqual(list.body.data[0]);
    expectError(await get(`/errors/${id}`), 404, 'SERVICE_ERROR_NOT_FOUND');
    expectError(await get(`/errors/${id}?environment=staging`), 404, 'SERVICE_ERROR_NOT_FOUND');
  });

  it('records validation failures of chat and RTC credentials, not requests refused before authentication', async () => {
    const { keys, get, project } = await setup();
    const token = (await api.post('/v1/chat/tokens', { token: keys.development, body: { userId: 'carol' } })).body
      .token;
    expectError(
      await api.post('/v1/chat/conversations', { token, body: { nope: true } }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
    const room = await createRoom(api, keys.development);
    const rtc = (await mintRtcToken(api, keys.development, room.id)).token;
    expectError(
      await api.post('/v1/telemetry/events', { token: rtc, body: { events: [] } }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
    // No trustworthy environment: not recorded anywhere.
    expectError(await api.get('/v1/rooms', { token: 'sb_dev_nope' }), 401, 'SERVICE_UNAUTHENTICATED');
    // Session routes are the dashboard's, not the runtime's.
    expectError(await get('/rooms?environment=nope'), 400, 'SERVICE_VALIDATION_FAILED');

    // Written in the background, after the answers: both, before the list is compared.
    const errors = (
      await eventually(
        () => get('/errors'),
        (res) => res.body.data?.length >= 2,
      )
    ).body.data;
    expect(errors.map((e: { credential: string; route: string }) => [e.credential, e.route])).toEqual([
      ['rtc', '/v1/telemetry/events'],
      ['chat', '/v1/chat/conversations'],
    ]);
    expect(project.id).toMatch(/^prj_/);
  });
});

describe('metrics', () => {
  it('counts requests and errors per minute, zero-filled over the window', async () => {
    const { keys, get } = await setup();
    clock.advance(MINUTE); // a minute of its own
    await api.get('/v1/rooms', { token: keys.development });
    await api.get('/v1/rooms', { token: keys.development });
    clock.advance(MINUTE);
    await api.get('/v1/rooms', { token: keys.development });
    await api.get('/v1/rooms/room_missing', { token: keys.development });

    const res = await get('/metrics?window=15m');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ environment: 'development', window: '15m', resolution: '1m' });
    const { requests, errors } = res.body.series;
    expect(requests).toHaveLength(15);
    const now = Math.floor(clock.now() / MINUTE) * MINUTE;
    expect(requests.at(-1)).toEqual({ at: new Date(now).toISOString(), value: 2 });
    expect(requests.at(-2)).toEqual({ at: new Date(now - MINUTE).toISOString(), value: 2 });
    expect(requests.at(-3).value).toBe(0);
    expect(errors.slice(-2).map((p: { value: number }) => p.value)).toEqual([0, 1]);
    // Nothing leaks into another environment.
    const staging = await get('/metrics?window=15m&environment=staging');
    expect(staging.body.series.requests.every((p: { value: number }) => p.value === 0)).toBe(true);
  });

  it('counts messages, connections, telemetry events; defaults to 1h', async () => {
    const { keys, get } = await setup();
    const conversation = (
      await api.post('/v1/chat/conversations', {
        token: keys.development,
        body: { name: 'metrics', members: [{ userId: 'alice' }] },
      })
    ).body;
    await sendMessage(api, keys.development, conversation.id, { senderId: 'alice', text: 'hi' });
    const room = await createRoom(api, keys.development);
    const rtc = (await mintRtcToken(api, keys.development, room.id)).token;
    await api.post('/v1/telemetry/events', { token: rtc, body: { events: [{ type: 'a' }, { type: 'b' }] } });
    const socket = connectSignaling(server.url, rtc);
    open.push(socket);
    await socket.next('joined');

    const res = await get('/metrics');
    expect(res.body.window).toBe('1h');
    const last = (name: string) => res.body.series[name].at(-1).value;
    expect(res.body.series.messages).toHaveLength(60);
    expect([last('messages'), last('telemetryEvents'), last('connections')]).toEqual([1, 2, 1]);
    expect(res.body.series.webhookDeliveries.succeeded.at(-1).value).toBe(0);
    expect(res.body.series.webhookDeliveries.failed.at(-1).value).toBe(0);
  });

  it('counts webhook delivery attempts by outcome, in metrics and usage', async () => {
    const { project, owner, keys, get } = await setup();
    const receiver = await startReceiver();
    try {
      const webhook = await registerWebhook(api, project.id, owner, { url: receiver.url, events: ['room.created'] });
      await createRoom(api, keys.development);
      await server.runDueWebhooks();
      receiver.reply({ status: 500 });
      await createRoom(api, keys.development);
      await server.runDueWebhooks();
      await receiver.waitForRequests(2);

      const { webhookDeliveries } = (await get('/metrics?window=5m')).body.series;
      expect([webhookDeliveries.succeeded.at(-1).value, webhookDeliveries.failed.at(-1).value]).toEqual([1, 1]);
      expect((await get('/usage')).body.webhookDeliveries).toBe(2);
      const diagnostics = (await get('/diagnostics')).body;
      // The queue's depth and the last minute's deliveries, per endpoint too.
      expect(diagnostics.webhookQueue).toEqual({
        pending: 1,
        oldestPendingAt: new Date(clock.now()).toISOString(),
        endpoints: [{ webhookId: webhook.id, pending: 1, deliveredLastMinute: 1 }],
      });
    } finally {
      await receiver.close();
    }
  });

  it('accepts windows up to 24h and refuses others with 400', async () => {
    const { get } = await setup();
    expect((await get('/metrics?window=24h')).body.series.requests).toHaveLength(1440);
    expect((await get('/metrics?window=1d')).status).toBe(200);
    for (const window of ['25h', '2d', '0m', '15', 'abc', '1w', '-5m', '']) {
      expectError(await get(`/metrics?window=${window}`), 400, 'SERVICE_VALIDATION_FAILED');
    }
  });
});

describe('diagnostics and usage', () => {
  it('reports the deployment and this environment', async () => {
    const { keys, get } = await setup();
    const room = await createRoom(api, keys.development);
    const socket = connectSignaling(server.url, (await mintRtcToken(api, keys.development, room.id)).token);
    open.push(socket);
    await socket.next('joined');
    await api.get('/v1/rooms/room_missing', { token: keys.development });

    const res = await get('/diagnostics');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: expect.any(String),
      uptimeSeconds: expect.any(Number),
      mode: 'local',
      environment: 'development',
      webhookQueue: { pending: 0, oldestPendingAt: null, endpoints: [] },
      connections: { signaling: 1, realtime: 0 },
    });
    expect(res.body.database.bytes).toBeGreaterThan(0);
    expect(res.body.recentErrorRate).toBeGreaterThan(0);
    expect(res.body.recentErrorRate).toBeLessThanOrEqual(1);
    const staging = (await get('/diagnostics?environment=staging')).body;
    expect(staging).toMatchObject({ connections: { signaling: 0, realtime: 0 }, recentErrorRate: 0 });
  });

  it('counts a month of messages and connection minutes', async () => {
    const { keys, get } = await setup();
    const conversation = (
      await api.post('/v1/chat/conversations', {
        token: keys.development,
        body: { name: 'usage', members: [{ userId: 'alice' }] },
      })
    ).body;
    for (const text of ['one', 'two']) {
      await api.post(`/v1/chat/conversations/${conversation.id}/messages`, {
        token: keys.development,
        body: { senderId: 'alice', text },
      });
    }
    const token = (await api.post('/v1/chat/tokens', { token: keys.development, body: { userId: 'alice' } })).body
      .token;
    const socket = connectRealtime(server.url, token);
    open.push(socket);
    await socket.next('connected');
    clock.advance(90_000);

    const res = await get('/usage');
    expect(res.status).toBe(200);
    const month = new Date(clock.now()).toISOString().slice(0, 7);
    expect(res.body).toEqual({
      environment: 'development',
      period: { month, from: `${month}-01T00:00:00.000Z`, to: expect.any(String) },
      messages: 2,
      connectionMinutes: 2,
      webhookDeliveries: 0,
      storageBytes: 0,
    });
    const old = (await get('/usage?month=2020-02')).body;
    expect(old).toMatchObject({ period: { from: '2020-02-01T00:00:00.000Z', to: '2020-03-01T00:00:00.000Z' } });
    expect(old).toMatchObject({ messages: 0, connectionMinutes: 0 });
    expect((await get('/usage?environment=production')).body.messages).toBe(0);
    for (const month of ['2026-13', '2026-1', 'january']) {
      expectError(await get(`/usage?month=${month}`), 400, 'SERVICE_VALIDATION_FAILED');
    }
  });
});

describe('access', () => {
  it('refuses an unknown environment on every route', async () => {
    const { get } = await setup();
    for (const path of [...READ_ROUTES, 'connections/conn_x', 'errors/err_x']) {
      expectError(await get(`/${path}?environment=qa`), 400, 'SERVICE_VALIDATION_FAILED');
      expectError(await get(`/${path}?environment=dev`), 400, 'SERVICE_VALIDATION_FAILED');
    }
  });

  it('lets BILLING read usage only, VIEWER read everything and change nothing, DEVELOPER read usage', async () => {
    const { owner, project, get } = await setup();
    const role = async (name: string) => {
      const user = await registerUser(api);
      await addMember(api, project.id, owner, user, name);
      return user;
    };
    const billing = await role('BILLING');
    const viewer = await role('VIEWER');
    const developer = await role('DEVELOPER');
    const stranger = await registerUser(api);

    for (const path of ['connections', 'connections/conn_x', 'errors', 'errors/err_x', 'metrics', 'diagnostics']) {
      expectError(await get(`/${path}`, billing.token), 403, 'SERVICE_PERMISSION_DENIED');
    }
    expectError(await get('/chat/conversations', billing.token), 403, 'SERVICE_PERMISSION_DENIED');
    expect((await get('/usage', billing.token)).status).toBe(200);

    for (const path of READ_ROUTES) {
      expect((await get(`/${path}`, viewer.token)).status).toBe(200);
      expect((await get(`/${path}`, developer.token)).status).toBe(200);
      expectError(await get(`/${path}`, stranger.token), 404, 'SERVICE_PROJECT_NOT_FOUND');
      expectError(await api.get(`/v1/projects/${project.id}/${path}`), 401, 'SERVICE_UNAUTHENTICATED');
    }
    expectError(
      await api.post(`/v1/projects/${project.id}/api-keys`, { token: viewer.token, body: { name: 'x' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expectError(
      await api.post(`/v1/projects/${project.id}/rooms`, { token: viewer.token, body: { name: 'x' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
  });
});

describe('across a restart', () => {
  it('closes, on start, the connections a process that died left open', async () => {
    let own = await startTestServer({ clock });
    try {
      const ownApi = client(own.url);
      const ctx = await projectWithKeys(ownApi);
      const token = (await ownApi.post('/v1/chat/tokens', { token: ctx.keys.development, body: { userId: 'dee' } }))
        .body.token;
      const socket = connectRealtime(own.url, token);
      const { connectionId } = await socket.next('connected');
      own = await own.restart();
      // As if the process had died: the row is still open in the database it left behind.
      await own.close();
      await withTestDatabase(own, (db) =>
        db.run('update connection_log set disconnected_at = null, close_reason = null'),
      );
      own = await startTestServer({ clock, dataDir: own.dataDir });
      const res = await client(own.url).get(`/v1/projects/${ctx.project.id}/connections/${connectionId}`, {
        token: ctx.owner.token,
      });
      expect(res.body).toMatchObject({
        disconnectedAt: new Date(clock.now()).toISOString(),
        closeReason: 'server stopped',
      });
    } finally {
      await own.dispose();
    }
  });

  it('keeps the newest 10,000 errors of an environment, dropping older ones as new ones come', async () => {
    let own = await startTestServer({ clock });
    try {
      const ctx = await projectWithKeys(client(own.url));
      const fail = (api: Client) => api.get('/v1/rooms/room_missing', { token: ctx.keys.development });
      expectError(await fail(client(own.url)), 404, 'SERVICE_ROOM_NOT_FOUND');
      await own.close();
      // A full backlog, older than every real record, written straight into the database.
      const backlogId = (i: number) => `err_00${String(i).padStart(24, '0')}`;
      await withTestDatabase(own, async (db) => {
        const [recorded] = await db.query('select * from error_log');
        expect(recorded).toMatchObject({ status: 404, environment: 'development' });
        const columns = Object.keys(recorded as object);
        const rows = Array.from({ length: ERROR_RETENTION }, (_, i) => ({ ...recorded, id: backlogId(i) }));
        await db.run('begin');
        // Many rows a statement, under both stores' limits on parameters.
        for (let at = 0; at < rows.length; at += 500) {
          const batch = rows.slice(at, at + 500);
          await db.run(
            `insert into error_log (${columns.join(', ')}) values ` +
              batch.map(() => `(${columns.map(() => '?').join(', ')})`).join(', '),
            batch.flatMap((row) => columns.map((column) => row[column as keyof typeof row])),
          );
        }
        await db.run('commit');
      });

      own = await startTestServer({ clock, dataDir: own.dataDir });
      const again = client(own.url);
      for (let i = 0; i < PRUNE_ERRORS_EVERY; i += 25) {
        await Promise.all(Array.from({ length: 25 }, () => fail(again)));
      }
      await own.close();
      const ids = (await withTestDatabase(own, (db) => db.query<{ id: string }>('select id from error_log')))
        .map((r) => r.id)
        .sort();
      expect(ids).toHaveLength(ERROR_RETENTION);
      // The oldest went; every real record stayed.
      expect(ids[0]).toBe(backlogId(PRUNE_ERRORS_EVERY + 1));
      expect(ids.filter((id) => !id.startsWith('err_00'))).toHaveLength(PRUNE_ERRORS_EVERY + 1);
    } finally {
      await own.dispose();
    }
  });

  it('keeps counted metrics, and no connection stays open across it', async () => {
    let own = await startTestServer({ clock });
    try {
      const ownApi = client(own.url);
      const ctx = await projectWithKeys(ownApi);
      await ownApi.get('/v1/rooms', { token: ctx.keys.development });
      const room = await createRoom(ownApi, ctx.keys.development);
      const socket = connectSignaling(own.url, (await mintRtcToken(ownApi, ctx.keys.development, room.id)).token);
      await socket.next('joined');
      own = await own.restart();
      const again = client(own.url);
      const get = (path: string) => again.get(`/v1/projects/${ctx.project.id}${path}`, { token: ctx.owner.token });
      expect((await get('/metrics?window=5m')).body.series.requests.at(-1).value).toBe(3);
      const [connection] = (await get('/connections')).body.data;
      expect(connection.disconnectedAt).not.toBeNull();
      expect((await get('/diagnostics')).body.connections.signaling).toBe(0);
    } finally {
      await own.dispose();
    }
  });
});
