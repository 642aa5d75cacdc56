import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/webhooks.js';
import { EVENT_CATALOGUE } from '../../server/webhooks/catalogue.js';
import { createProject, expectError } from '../support/factories.js';
import { envelopeOf, signatureTime, startWebhookHarness, type WebhookHarness } from '../support/webhooks.js';

let h: WebhookHarness;
beforeEach(async () => {
  h = await startWebhookHarness();
});
afterEach(() => h.dispose());

const message = {
  message: { id: 'msg_01TEST', roomId: 'conv_01TEST', senderId: 'alice', text: 'Hi there' },
};

describe('a delivery', () => {
  it('POSTs the envelope as JSON with the signature, event id and event type headers', async () => {
    const receiver = await h.receiver();
    const webhook = await h.register({ url: receiver.url, environment: 'Production' });
    h.emit('message.created', 'production', message);
    await h.server.runDueWebhooks();

    const [request] = await receiver.waitForRequests(1);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hooks');
    expect(request.headers['content-type']).toBe('application/json');
    const envelope = envelopeOf(request);
    expect(envelope).toEqual({
      id: expect.stringMatching(/^evt_[0-9A-Z]{26}$/),
      type: 'message.created',
      projectId: h.projectId,
      environment: 'PRODUCTION',
      createdAt: new Date(h.clock.now()).toISOString(),
      data: message,
    });
    expect(Object.keys(envelope)).toEqual(['id', 'type', 'projectId', 'environment', 'createdAt', 'data']);
    expect(request.headers['service-event-id']).toBe(envelope.id);
    expect(request.headers['service-event-type']).toBe('message.created');

    const signature = String(request.headers['service-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(signatureTime(signature)).toBe(Math.floor(h.clock.now() / 1000));
    // The receiver's side: the SDK helper accepts it, and rejects it for other bytes or another secret.
    expect(verifyWebhook(webhook.secret, signature, request.rawBody, { now: h.clock.now() })).toBe(true);
    expect(verifyWebhook(webhook.secret, signature, `${request.rawBody} `, { now: h.clock.now() })).toBe(false);
    expect(verifyWebhook(`${webhook.secret}x`, signature, request.rawBody, { now: h.clock.now() })).toBe(false);

    const [delivery] = await h.deliveries(webhook);
    expect(delivery).toMatchObject({
      id: expect.stringMatching(/^whd_/),
      webhookId: webhook.id,
      eventId: envelope.id,
      eventType: 'message.created',
      status: 'SUCCEEDED',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(delivery.attemptLog).toEqual([
      {
        number: 1,
        attemptedAt: new Date(h.clock.now()).toISOString(),
        durationMs: expect.any(Number),
        statusCode: 200,
        error: null,
        // The headers as the receiver got them, the signature included.
        requestHeaders: {
          'content-type': 'application/json',
          'user-agent': String(request.headers['user-agent']),
          'service-signature': signature,
          'service-event-id': envelope.id,
          'service-event-type': 'message.created',
        },
        responseBody: 'ok',
        // No fault was injected into the environment.
        injectedFault: null,
      },
    ]);
    // The log never shows the payload (it carries message text).
    expect(JSON.stringify(delivery)).not.toContain('Hi there');
  });

  it.skipIf(!existsSync('/usr/bin/openssl'))(
    'signs "t.body" so that openssl, as docs/webhooks.md shows, computes the same v1',
    async () => {
      const receiver = await h.receiver();
      const webhook = await h.register({ url: receiver.url });
      h.emit('room.created');
      await h.server.runDueWebhooks();
      const [request] = await receiver.waitForRequests(1);
      const signature = String(request.headers['service-signature']);
      const t = signatureTime(signature);
      const computed = execFileSync('openssl', ['dgst', '-sha256', '-hmac', webhook.secret, '-r'], {
        input: Buffer.concat([Buffer.from(`${t}.`), request.rawBody]),
      })
        .toString()
        .split(' ')[0];
      expect(signature).toBe(`t=${t},v1=${computed}`);
    },
  );

  it('keeps the response body start (4 KB) and the status code in the log', async () => {
    const receiver = await h.receiver();
    receiver.reply({ status: 202, body: `${'é'.repeat(2100)}tail` });
    const webhook = await h.register({ url: receiver.url });
    h.emit('room.created');
    await h.server.runDueWebhooks();
    const [delivery] = await h.deliveries(webhook);
    expect(delivery.status).toBe('SUCCEEDED');
    const [attempt] = delivery.attemptLog;
    expect(attempt.statusCode).toBe(202);
    expect(Buffer.byteLength(attempt.responseBody)).toBeLessThanOrEqual(4096);
    expect(attempt.responseBody.startsWith('é'.repeat(2047))).toBe(true);
    expect(attempt.responseBody).not.toContain('tail');
  });

  it('logs a NUL in the response body as U+FFFD, on both stores (PostgreSQL text cannot hold one)', async () => {
    const receiver = await h.receiver();
    receiver.reply({ status: 200, body: 'binary\u0000answer' });
    const webhook = await h.register({ url: receiver.url });
    h.emit('room.created');
    await h.server.runDueWebhooks();
    const [delivery] = await h.deliveries(webhook);
    expect(delivery.status).toBe('SUCCEEDED');
    expect(delivery.attemptLog[0].responseBody).toBe('binary\uFFFDanswer');
  });
});

describe('matching', () => {
  it('sends an event only to endpoints of its own environment and project', async () => {
    const dev = await h.receiver();
    const staging = await h.receiver();
    const production = await h.receiver();
    const devHook = await h.register({ url: dev.url, environment: 'development' });
    const stagingHook = await h.register({ url: staging.url, environment: 'staging' });
    await h.register({ url: production.url, environment: 'production' });
    const otherProject = await createProject(h.api, h.owner, 'Other');

    h.emit('message.created', 'development');
    h.emit('message.created', 'development', undefined, otherProject.id);
    await h.server.runDueWebhooks();
    expect(dev.requests).toHaveLength(1);
    expect(envelopeOf(dev.requests[0]).environment).toBe('DEVELOPMENT');
    expect(staging.requests).toHaveLength(0);
    expect(production.requests).toHaveLength(0);
    // Not even queued: the staging endpoint's log has nothing of development.
    expect(await h.deliveries(stagingHook)).toEqual([]);

    h.emit('room.created', 'staging');
    await h.server.runDueWebhooks();
    expect(staging.requests).toHaveLength(1);
    expect(envelopeOf(staging.requests[0])).toMatchObject({ type: 'room.created', environment: 'STAGING' });
    expect(dev.requests).toHaveLength(1);
    expect(production.requests).toHaveLength(0);
    expect(await h.deliveries(devHook)).toHaveLength(1);
  });

  it('sends only the subscribed types; an empty list means every type', async () => {
    const rooms = await h.receiver();
    const everything = await h.receiver();
    await h.register({ url: rooms.url, events: ['room.created', 'room.deleted'] });
    await h.register({ url: everything.url, events: [] });
    h.emit('message.created');
    h.emit('room.created');
    h.emit('reaction.added');
    h.emit('room.deleted');
    await h.server.runDueWebhooks();
    const types = (requests: typeof rooms.requests) => requests.map((r) => envelopeOf(r).type).sort();
    expect(types(rooms.requests)).toEqual(['room.created', 'room.deleted']);
    expect(types(everything.requests)).toEqual(['message.created', 'reaction.added', 'room.created', 'room.deleted']);
  });

  it('queues nothing for a disabled endpoint', async () => {
    const receiver = await h.receiver();
    const webhook = await h.register({ url: receiver.url });
    const path = `/v1/projects/${h.projectId}/webhooks/${webhook.id}`;
    expect((await h.api.patch(path, { token: h.owner.token, body: { enabled: false } })).status).toBe(200);
    h.emit('message.created');
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(0);
    expect(await h.deliveries(webhook)).toEqual([]);
  });

  it('gives each endpoint its own delivery of the same event, with one event id', async () => {
    const a = await h.receiver();
    const b = await h.receiver();
    await h.register({ url: a.url });
    await h.register({ url: b.url });
    h.emit('member.added');
    await h.server.runDueWebhooks();
    expect(a.requests[0].rawBody.equals(b.requests[0].rawBody)).toBe(true);
    expect(a.requests[0].headers['service-event-id']).toBe(b.requests[0].headers['service-event-id']);
  });
});

describe('resend and test events', () => {
  it('resends a delivery now with the same event id and body and a fresh signature', async () => {
    const receiver = await h.receiver();
    const webhook = await h.register({ url: receiver.url });
    h.emit('message.updated');
    await h.server.runDueWebhooks();
    const [delivery] = await h.deliveries(webhook);
    expect(delivery.status).toBe('SUCCEEDED');

    h.clock.advance(60_000);
    const res = await h.api.post(
      `/v1/projects/${h.projectId}/webhooks/${webhook.id}/deliveries/${delivery.id}/resend`,
      { token: h.owner.token },
    );
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      id: delivery.id,
      status: 'PENDING',
      nextAttemptAt: new Date(h.clock.now()).toISOString(),
    });
    await h.server.runDueWebhooks();
    const [first, second] = await receiver.waitForRequests(2);
    expect(second.rawBody.equals(first.rawBody)).toBe(true);
    expect(second.headers['service-event-id']).toBe(first.headers['service-event-id']);
    expect(signatureTime(second.headers['service-signature'])).toBe(
      signatureTime(first.headers['service-signature']) + 60,
    );
    expect(
      verifyWebhook(webhook.secret, String(second.headers['service-signature']), second.rawBody, {
        now: h.clock.now(),
      }),
    ).toBe(true);

    const [after] = await h.deliveries(webhook);
    expect(after).toMatchObject({ id: delivery.id, status: 'SUCCEEDED', attempts: 2 });
    expect(after.attemptLog.map((a: { number: number }) => a.number)).toEqual([1, 2]);
  });

  it('keeps a resend asked for while the delivery is in flight: one more attempt follows', async () => {
    const receiver = await h.receiver();
    let answerFirst: (reply: { status: number }) => void = () => {};
    const first = new Promise<{ status: number }>((resolve) => {
      answerFirst = resolve;
    });
    receiver.reply((_request, index) => (index === 0 ? first : { status: 200 }));
    const webhook = await h.register({ url: receiver.url });
    h.emit('message.updated');
    await receiver.waitForRequests(1); // the first attempt is in flight
    const [delivery] = await h.deliveries(webhook);

    const resend = await h.api.post(
      `/v1/projects/${h.projectId}/webhooks/${webhook.id}/deliveries/${delivery.id}/resend`,
      { token: h.owner.token },
    );
    expect(resend.status).toBe(202);
    answerFirst({ status: 200 });
    await h.server.runDueWebhooks();

    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1].headers['service-event-id']).toBe(delivery.eventId);
    const [after] = await h.deliveries(webhook);
    expect(after).toMatchObject({ id: delivery.id, status: 'SUCCEEDED', attempts: 2 });
  });

  it('refuses to resend an unknown delivery (404) or to a disabled endpoint (409)', async () => {
    const receiver = await h.receiver();
    const webhook = await h.register({ url: receiver.url });
    h.emit('message.updated');
    await h.server.runDueWebhooks();
    const [delivery] = await h.deliveries(webhook);
    const base = `/v1/projects/${h.projectId}/webhooks/${webhook.id}`;
    expectError(
      await h.api.post(`${base}/deliveries/whd_nope/resend`, { token: h.owner.token }),
      404,
      'SERVICE_WEBHOOK_DELIVERY_NOT_FOUND',
    );
    await h.api.patch(base, { token: h.owner.token, body: { enabled: false } });
    expectError(
      await h.api.post(`${base}/deliveries/${delivery.id}/resend`, { token: h.owner.token }),
      409,
      'SERVICE_WEBHOOK_DISABLED',
    );
    expectError(
      await h.api.post(`${base}/test`, { token: h.owner.token, body: { type: 'room.created' } }),
      409,
      'SERVICE_WEBHOOK_DISABLED',
    );
  });

  it('sends a test event of any catalogue type, with the example data, to that endpoint only', async () => {
    const target = await h.receiver();
    const bystander = await h.receiver();
    const webhook = await h.register({ url: target.url, events: ['message.created'] });
    await h.register({ url: bystander.url });
    const res = await h.api.post(`/v1/projects/${h.projectId}/webhooks/${webhook.id}/test`, {
      token: h.owner.token,
      body: { type: 'live_stream.started' },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      eventType: 'live_stream.started',
      status: 'PENDING',
      attempts: 0,
      attemptLog: [],
    });
    await h.server.runDueWebhooks();
    const [request] = await target.waitForRequests(1);
    expect(envelopeOf(request)).toMatchObject({
      id: res.body.eventId,
      type: 'live_stream.started',
      environment: 'DEVELOPMENT',
      data: EVENT_CATALOGUE['live_stream.started'].example,
    });
    expect(
      verifyWebhook(webhook.secret, String(request.headers['service-signature']), request.rawBody, {
        now: h.clock.now(),
      }),
    ).toBe(true);
    expect(bystander.requests).toHaveLength(0);

    expectError(
      await h.api.post(`/v1/projects/${h.projectId}/webhooks/${webhook.id}/test`, {
        token: h.owner.token,
        body: { type: 'message.exploded' },
      }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
  });
});

describe('the delivery log', () => {
  it('pages newest first and filters by status', async () => {
    const receiver = await h.receiver();
    receiver.reply((_request, index) => ({ status: index % 2 === 0 ? 200 : 500 }));
    const webhook = await h.register({ url: receiver.url });
    for (let i = 0; i < 5; i++) {
      h.emit('message.created');
      await h.server.runDueWebhooks();
    }
    const base = `/v1/projects/${h.projectId}/webhooks/${webhook.id}/deliveries`;
    const first = await h.api.get(`${base}?limit=2`, { token: h.owner.token });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await h.api.get(`${base}?limit=2&cursor=${first.body.nextCursor}`, { token: h.owner.token });
    const third = await h.api.get(`${base}?limit=2&cursor=${second.body.nextCursor}`, { token: h.owner.token });
    expect(third.body.nextCursor).toBeNull();
    const ids = [...first.body.data, ...second.body.data, ...third.body.data].map((d: { id: string }) => d.id);
    expect(ids).toHaveLength(5);
    expect([...ids].sort().reverse()).toEqual(ids);

    const statuses = async (status: string) =>
      (await h.api.get(`${base}?status=${status}`, { token: h.owner.token })).body.data.map(
        (d: { status: string }) => d.status,
      );
    expect(await statuses('SUCCEEDED')).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
    expect(await statuses('PENDING')).toEqual(['PENDING', 'PENDING']);

    const one = await h.api.get(`${base}/${ids[0]}`, { token: h.owner.token });
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(ids[0]);
    expectError(await h.api.get(`${base}?status=DONE`, { token: h.owner.token }), 400, 'SERVICE_VALIDATION_FAILED');
  });
});
