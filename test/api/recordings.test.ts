import { describe, expect, it } from 'vitest';
import {
  createConversation,
  createRoom,
  expectError,
  mintChatToken,
  mintRtcToken,
  projectWithKeys,
  registerWebhook,
  type TestUser,
} from '../support/factories.js';
import { harErrors } from '../support/har.js';
import { client } from '../support/http.js';
import { startTestServer } from '../support/server.js';
import { connectRealtime, connectSignaling } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';
import { eventually } from '../support/wait.js';
import { startReceiver } from '../support/webhook-receiver.js';

const t = useTestServer();
const recordings = (projectId: string, environment = 'development', rest = '') =>
  `/v1/projects/${projectId}/environment/recordings${rest}?environment=${environment}`;

async function start(projectId: string, owner: TestUser, body: Record<string, unknown> = {}) {
  const res = await t.api.post(recordings(projectId), { token: owner.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; state: string };
}

describe('environment recordings', () => {
  it('record chat over REST and realtime, signaling and a webhook that fails then succeeds, as HAR without a secret', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const receiver = await startReceiver();
    receiver.reply((_request, index) => (index === 0 ? { status: 500, body: 'down' } : { status: 200, body: 'ok' }));
    const webhook = await registerWebhook(t.api, project.id, owner, { url: receiver.url, events: ['room.created'] });
    const recording = await start(project.id, owner);
    expect(recording.state).toBe('recording');

    // Another environment's traffic is not recorded.
    const stagingRoom = await createRoom(t.api, keys.staging, 'staging-room-not-recorded');

    const chatToken = await mintChatToken(t.api, keys.development, 'alice');
    const conversation = await createConversation(t.api, keys.development, { members: ['alice'] });
    const realtime = connectRealtime(t.server.url, chatToken);
    await realtime.next('connected');
    realtime.send({ type: 'ping' });
    await realtime.next('pong');
    const sent = await t.api.post(`/v1/chat/conversations/${conversation.id}/messages`, {
      token: chatToken,
      body: { text: 'recorded hello' },
    });
    expect(sent.status).toBe(201);
    await realtime.next('message.created');
    realtime.close();

    const room = await createRoom(t.api, keys.development, 'recorded-room');
    const rtc = await mintRtcToken(t.api, keys.development, room.id);
    const signaling = connectSignaling(t.server.url, rtc.token);
    await signaling.next('joined');
    signaling.send({ type: 'ping' });
    await signaling.next('pong');
    signaling.close();

    // room.created: the first attempt fails, the retry (due 10 s later on the environment's test clock) succeeds.
    await receiver.waitForRequests(1, 5000);
    const advanced = await t.api.post(`/v1/projects/${project.id}/environment/clock/advance?environment=development`, {
      token: owner.token,
      body: { seconds: 60 },
    });
    expect(advanced.status).toBe(200);
    await receiver.waitForRequests(2, 5000);
    const signature = String(receiver.requests[0].headers['service-signature']);

    // Both sockets' closings are in before the stop.
    await eventually(
      async () =>
        (await t.api.get(recordings(project.id, 'development', `/${recording.id}/har`), { token: owner.token })).body,
      (har) =>
        har.log.entries.filter((e: any) => e._webSocketClose).length === 2 &&
        har.log.entries.filter((e: any) => e._switchboardKind === 'webhook').length === 2,
      5000,
    );
    const stopped = await t.api.post(recordings(project.id, 'development', `/${recording.id}/stop`), {
      token: owner.token,
    });
    expect(stopped.body).toMatchObject({ state: 'stopped', endReason: 'stopped', endedAt: expect.any(String) });
    const download = await t.api.get(recordings(project.id, 'development', `/${recording.id}/har`), {
      token: owner.token,
    });
    expect(download.status).toBe(200);
    const har = download.body;

    expect(harErrors(har)).toEqual([]);
    const text = JSON.stringify(har);
    for (const secret of [keys.development, keys.staging, chatToken, rtc.token, webhook.secret, signature, owner.token])
      expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(stagingRoom.id);
    expect(text).not.toContain('staging-room-not-recorded');

    const entries = har.log.entries as any[];
    const rest = entries.filter((e) => e._switchboardKind === 'rest');
    const message = rest.find((e) => e.request.url.endsWith(`/v1/chat/conversations/${conversation.id}/messages`));
    expect(message.request.method).toBe('POST');
    expect(JSON.parse(message.request.postData.text)).toEqual({ text: 'recorded hello' });
    expect(message.response.status).toBe(201);
    expect(JSON.parse(message.response.content.text).text).toBe('recorded hello');
    expect(message.request.headers).toContainEqual({ name: 'authorization', value: '[redacted]' });
    const minted = rest.find((e) => e.request.url.endsWith('/v1/chat/tokens'));
    expect(JSON.parse(minted.response.content.text).token).toBe('[redacted]');

    const [realtimeEntry] = entries.filter((e) => e._switchboardKind === 'realtime');
    expect(realtimeEntry.request.url).toMatch(/^ws:\/\/.+\/v1\/realtime\?access_token=%5Bredacted%5D$/);
    expect(realtimeEntry.response.status).toBe(101);
    const frames = realtimeEntry._webSocketMessages.map((m: any) => [m.type, JSON.parse(m.data).type]);
    expect(frames).toEqual(
      expect.arrayContaining([
        ['receive', 'connected'],
        ['send', 'ping'],
        ['receive', 'pong'],
        ['receive', 'message.created'],
      ]),
    );
    expect(realtimeEntry._webSocketMessages[0]).toMatchObject({ opcode: 1, time: expect.any(Number) });
    const [signalingEntry] = entries.filter((e) => e._switchboardKind === 'signaling');
    expect(signalingEntry._webSocketMessages.map((m: any) => [m.type, JSON.parse(m.data).type])).toEqual(
      expect.arrayContaining([
        ['receive', 'joined'],
        ['send', 'ping'],
        ['receive', 'pong'],
      ]),
    );
    expect(signalingEntry._webSocketClose).toBeDefined();

    const attempts = entries.filter((e) => e._switchboardKind === 'webhook');
    expect(attempts.map((e) => e.response.status)).toEqual([500, 200]);
    expect(attempts[0].request.url).toBe(receiver.url);
    expect(attempts[0].request.headers).toContainEqual({ name: 'service-signature', value: '[redacted]' });
    expect(attempts[0]._webhook).toMatchObject({ webhookId: webhook.id, eventType: 'room.created' });
    // The retry went out on the advanced test clock: its `_testClock` runs a minute ahead of its wall time.
    const ahead = Date.parse(attempts[1]._testClock) - Date.parse(attempts[1].startedDateTime);
    expect(ahead).toBeGreaterThanOrEqual(60_000);
    expect(Date.parse(attempts[0]._testClock)).toBe(Date.parse(attempts[0].startedDateTime));
    await receiver.close();

    const audit = await t.api.get(`/v1/projects/${project.id}/audit-logs`, { token: owner.token });
    const actions = audit.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['environment.recording_started', 'environment.recording_stopped']));
  });

  it('a size limit ends the recording with its reason; one at a time per environment; list, delete', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const recording = await start(project.id, owner, { maxBytes: 2048 });
    expectError(
      await t.api.post(recordings(project.id), { token: owner.token, body: {} }),
      409,
      'SERVICE_RECORDING_IN_PROGRESS',
    );
    for (let i = 0; i < 5; i++) await createRoom(t.api, keys.development);
    const ended = await eventually(
      async () =>
        (await t.api.get(recordings(project.id, 'development', `/${recording.id}`), { token: owner.token })).body,
      (r) => r.state === 'stopped',
      5000,
    );
    expect(ended).toMatchObject({ endReason: 'size_limit', maxBytes: 2048 });
    expect(ended.bytes).toBeGreaterThan(2048);
    const audit = await t.api.get(`/v1/projects/${project.id}/audit-logs?action=environment.recording_stopped`, {
      token: owner.token,
    });
    expect(audit.body.data[0]).toMatchObject({ actor: { type: 'system' }, details: { endReason: 'size_limit' } });

    // Once it ended, a new one may start.
    const next = await start(project.id, owner);
    const list = await t.api.get(recordings(project.id), { token: owner.token });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([next.id, recording.id]);
    expect(
      (await t.api.delete(recordings(project.id, 'development', `/${next.id}`), { token: owner.token })).status,
    ).toBe(204);
    expectError(
      await t.api.get(recordings(project.id, 'development', `/${next.id}`), { token: owner.token }),
      404,
      'SERVICE_RECORDING_NOT_FOUND',
    );
  });

  it('production is refused unless the server allows it (serve --allow-production-recording); a duration limit', async () => {
    const { owner, project } = await projectWithKeys(t.api);
    expectError(
      await t.api.post(recordings(project.id, 'production'), { token: owner.token, body: {} }),
      403,
      'SERVICE_PRODUCTION_ENVIRONMENT',
    );
    const allowing = await startTestServer({ security: { allowProductionRecording: true } });
    try {
      const api = client(allowing.url);
      const other = await projectWithKeys(api);
      const res = await api.post(recordings(other.project.id, 'production'), { token: other.owner.token, body: {} });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ environment: 'production', state: 'recording' });
      // And the duration limit ends one by itself.
      const short = await api.post(recordings(other.project.id, 'staging'), {
        token: other.owner.token,
        body: { maxDurationSeconds: 1 },
      });
      expect(short.status).toBe(201);
      const ended = await eventually(
        async () =>
          (await api.get(recordings(other.project.id, 'staging', `/${short.body.id}`), { token: other.owner.token }))
            .body,
        (r) => r.state === 'stopped',
        5000,
      );
      expect(ended.endReason).toBe('duration_limit');
    } finally {
      await allowing.dispose();
    }
  });
});
