import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/webhooks.js';
import { PASSWORD } from '../support/factories.js';
import { withTestDatabase } from '../support/test-database.js';
import { freePort } from '../support/wait.js';
import { envelopeOf, signatureTime, startWebhookHarness, type WebhookHarness } from '../support/webhooks.js';

let h: WebhookHarness;
beforeEach(async () => {
  h = await startWebhookHarness();
});
afterEach(() => h.dispose());

const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;

describe('retries', () => {
  it('retries after 10, 20, 40, 80, 160 and 320 s with the same event and body, then FAILED', async () => {
    const receiver = await h.receiver();
    receiver.reply({ status: 500, body: 'boom' });
    const webhook = await h.register({ url: receiver.url });
    const start = h.clock.now();
    h.emit('message.created');
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(1);

    for (const [index, delay] of [10, 20, 40, 80, 160, 320].entries()) {
      // One millisecond early: nothing.
      h.clock.advance(delay * SECOND - 1);
      await h.server.runDueWebhooks();
      expect(receiver.requests, `before retry ${index + 1}`).toHaveLength(index + 1);
      const [pending] = await h.deliveries(webhook);
      expect(pending).toMatchObject({ status: 'PENDING', attempts: index + 1, lastStatusCode: 500 });
      expect(pending.nextAttemptAt).toBe(new Date(h.clock.now() + 1).toISOString());
      // On time: the retry.
      h.clock.advance(1);
      await h.server.runDueWebhooks();
      expect(receiver.requests, `retry ${index + 1}`).toHaveLength(index + 2);
    }

    const [delivery] = await h.deliveries(webhook);
    expect(delivery).toMatchObject({ status: 'FAILED', attempts: 7, lastStatusCode: 500, nextAttemptAt: null });
    const offsets = delivery.attemptLog.map(
      (a: { attemptedAt: string }) => (Date.parse(a.attemptedAt) - start) / SECOND,
    );
    expect(offsets).toEqual([0, 10, 30, 70, 150, 310, 630]);
    expect(delivery.attemptLog.every((a: any) => a.statusCode === 500 && a.responseBody === 'boom')).toBe(true);

    // Every attempt: the same event id and bytes, a signature with its own fresh timestamp.
    const first = receiver.requests[0];
    for (const [i, request] of receiver.requests.entries()) {
      expect(request.rawBody.equals(first.rawBody)).toBe(true);
      expect(request.headers['service-event-id']).toBe(envelopeOf(first).id);
      expect(signatureTime(request.headers['service-signature'])).toBe(start / SECOND + offsets[i]);
    }
    expect((await h.endpoint(webhook)).consecutiveFailures).toBe(7);

    h.clock.advance(3600 * SECOND);
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(7);
  });

  it('succeeds on a retry, and a success resets the endpoint’s failure count', async () => {
    const receiver = await h.receiver();
    receiver.reply((_request, index) => ({ status: index === 0 ? 503 : 204 }));
    const webhook = await h.register({ url: receiver.url });
    h.emit('room.created');
    await h.server.runDueWebhooks();
    expect((await h.endpoint(webhook)).consecutiveFailures).toBe(1);
    h.clock.advance(10 * SECOND);
    await h.server.runDueWebhooks();
    const [delivery] = await h.deliveries(webhook);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attempts: 2, lastStatusCode: 204, nextAttemptAt: null });
    expect(delivery.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([503, 204]);
    expect((await h.endpoint(webhook)).consecutiveFailures).toBe(0);
  });

  it('keeps finished deliveries in the log for 30 days after their last attempt, pending ones for as long as they run', async () => {
    const up = await h.receiver();
    up.reply({ status: 204 });
    const down = await h.receiver();
    down.reply({ status: 503 });
    const ok = await h.register({ url: up.url });
    const failing = await h.register({ url: down.url });
    h.emit('room.created');
    await h.server.runDueWebhooks();
    expect((await h.deliveries(ok))[0]).toMatchObject({ status: 'SUCCEEDED' });
    expect((await h.deliveries(failing))[0]).toMatchObject({ status: 'PENDING', attempts: 1 });

    // Sessions expire long before that: sign in again to read the log.
    const signIn = async () => {
      const res = await h.api.post('/v1/auth/login', { body: { email: h.owner.email, password: PASSWORD } });
      h.owner.token = res.body.token;
    };
    h.clock.advance(29 * DAY);
    await h.server.runDueWebhooks();
    await signIn();
    expect(await h.deliveries(ok)).toHaveLength(1);

    h.clock.advance(DAY + SECOND);
    await h.server.runDueWebhooks();
    await signIn();
    expect(await h.deliveries(ok)).toEqual([]);
    // Retried once a day here (the clock jumps), and still running: kept.
    expect((await h.deliveries(failing))[0]).toMatchObject({ status: 'PENDING', attempts: 3 });
  });

  it('counts a redirect (not followed) and a refused connection as failed attempts', async () => {
    const redirecting = await h.receiver();
    const elsewhere = await h.receiver();
    redirecting.reply({ status: 302, headers: { location: elsewhere.url } });
    const closedPort = await freePort();
    const redirected = await h.register({ url: redirecting.url });
    const unreachable = await h.register({ url: `http://127.0.0.1:${closedPort}/hooks` });
    h.emit('room.created');
    await h.server.runDueWebhooks();

    const [viaRedirect] = await h.deliveries(redirected);
    expect(viaRedirect).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: 302 });
    expect(viaRedirect.lastError).toMatch(/redirect/i);
    expect(elsewhere.requests).toHaveLength(0);

    const [refused] = await h.deliveries(unreachable);
    expect(refused).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: null });
    expect(refused.lastError).toMatch(/Connection failed.*ECONNREFUSED/);
    expect(refused.attemptLog[0]).toMatchObject({ statusCode: null, responseBody: null });
  });
});

describe('the 5 s timeout', () => {
  it('fails an attempt that gets no answer within 5 s, while other endpoints are served at once', async () => {
    const silent = await h.receiver();
    silent.reply('hang');
    const prompt = await h.receiver();
    const slowHook = await h.register({ url: silent.url });
    await h.register({ url: prompt.url });
    const sent = performance.now();
    h.emit('message.created');
    const draining = h.server.runDueWebhooks();

    // The prompt endpoint is served while the silent one still holds its request (well before its 5 s timeout).
    const [served] = await prompt.waitForRequests(1, 2000);
    expect(served.receivedAt - sent).toBeLessThan(2500);
    await silent.waitForRequests(1);
    const [inFlight] = await h.deliveries(slowHook);
    expect(inFlight).toMatchObject({ status: 'PENDING', attempts: 0 });

    await draining;
    const elapsed = performance.now() - sent;
    expect(elapsed).toBeGreaterThanOrEqual(4900);
    expect(elapsed).toBeLessThan(7000);
    const [delivery] = await h.deliveries(slowHook);
    expect(delivery).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      lastStatusCode: null,
      lastError: 'Timed out after 5 s.',
    });
    expect(delivery.nextAttemptAt).toBe(new Date(h.clock.now() + 10 * SECOND).toISOString());
    const [attempt] = delivery.attemptLog;
    expect(attempt.durationMs).toBeGreaterThanOrEqual(4900);
    expect(attempt.durationMs).toBeLessThan(6500);
  }, 20_000);
});

describe('auto-disable', () => {
  it('disables an endpoint after 50 consecutive failures, stops its retries, and re-enabling clears the count', async () => {
    const receiver = await h.receiver();
    receiver.reply({ status: 500 });
    const webhook = await h.register({ url: receiver.url });
    for (let i = 0; i < 49; i++) h.emit('message.created');
    await h.server.runDueWebhooks();
    expect(await h.endpoint(webhook)).toMatchObject({ enabled: true, consecutiveFailures: 49, disabledAt: null });

    h.emit('message.created');
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(50);
    const disabled = await h.endpoint(webhook);
    expect(disabled).toMatchObject({
      enabled: false,
      consecutiveFailures: 50,
      disabledAt: new Date(h.clock.now()).toISOString(),
      disabledReason: 'Disabled after 50 consecutive failed attempts.',
    });
    const deliveries = await h.deliveries(webhook, '&limit=100');
    expect(deliveries).toHaveLength(50);
    expect(deliveries.every((d: any) => d.status === 'FAILED' && d.nextAttemptAt === null)).toBe(true);

    // The audit log says who did it: the server.
    const audit = await h.api.get(`/v1/projects/${h.projectId}/audit-logs?action=webhook.disabled`, {
      token: h.owner.token,
    });
    expect(audit.body.data).toEqual([
      expect.objectContaining({
        actor: { type: 'system', id: null, email: null },
        target: { type: 'webhook', id: webhook.id },
        environment: 'development',
        details: { reason: 'Disabled after 50 consecutive failed attempts.', consecutiveFailures: 50 },
      }),
    ]);

    // No retries, and new events are not queued.
    h.clock.advance(10 * SECOND);
    h.emit('message.created');
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(50);
    expect(await h.deliveries(webhook, '&limit=100')).toHaveLength(50);

    receiver.reply({ status: 200 });
    const reenabled = await h.api.patch(`/v1/projects/${h.projectId}/webhooks/${webhook.id}`, {
      token: h.owner.token,
      body: { enabled: true },
    });
    expect(reenabled.body).toMatchObject({
      enabled: true,
      consecutiveFailures: 0,
      disabledAt: null,
      disabledReason: null,
    });
    h.emit('message.created');
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(51);
    const [latest] = await h.deliveries(webhook);
    expect(latest.status).toBe('SUCCEEDED');
  }, 20_000);
});

describe('a disabled endpoint', () => {
  it('gets nothing of a delivery found pending when it is claimed: it fails unsent', async () => {
    const receiver = await h.receiver();
    const webhook = await h.register({ url: receiver.url });
    h.emit('message.created');
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(1);
    const disabled = await h.api.patch(`/v1/projects/${h.projectId}/webhooks/${webhook.id}`, {
      token: h.owner.token,
      body: { enabled: false },
    });
    expect(disabled.body).toMatchObject({ enabled: false });

    // What a batch of events queued from the endpoints in memory as the disabling committed leaves behind: a pending
    // delivery of the disabled endpoint (written behind the server's back here, as that race cannot be timed).
    const [delivered] = await h.deliveries(webhook);
    await withTestDatabase(h.server, (db) =>
      db.run("UPDATE webhook_deliveries SET status = 'PENDING', next_attempt_at = ? WHERE id = ?", [
        h.clock.now(),
        delivered.id,
      ]),
    );
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(1);
    const [failed] = await h.deliveries(webhook);
    expect(failed).toMatchObject({
      id: delivered.id,
      status: 'FAILED',
      nextAttemptAt: null,
      lastError: 'Endpoint disabled: retries stopped.',
    });
  });
});

describe('a restart', () => {
  it('in the middle of retries loses nothing and sends nothing twice', async () => {
    const receiver = await h.receiver();
    receiver.reply({ status: 500 });
    const webhook = await h.register({ url: receiver.url });
    h.emit('message.created');
    h.emit('room.created');
    await h.server.runDueWebhooks();
    receiver.reply({ status: 200 });
    // The room event is resent now and succeeds; the message event still waits for its retry.
    const [roomDelivery] = await h.deliveries(webhook);
    expect(roomDelivery.eventType).toBe('room.created');
    await h.api.post(`/v1/projects/${h.projectId}/webhooks/${webhook.id}/deliveries/${roomDelivery.id}/resend`, {
      token: h.owner.token,
    });
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(3);

    await h.restart();
    h.clock.advance(10 * SECOND);
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(4);
    const retried = receiver.requests[3];
    const firstMessageAttempt = receiver.requests.find((r) => envelopeOf(r).type === 'message.created');
    expect(envelopeOf(retried).type).toBe('message.created');
    expect(retried.rawBody.equals(firstMessageAttempt?.rawBody ?? Buffer.alloc(0))).toBe(true);
    // Signed with the same secret, which the new server read back from its encrypted store.
    expect(
      verifyWebhook(webhook.secret, String(retried.headers['service-signature']), retried.rawBody, {
        now: h.clock.now(),
      }),
    ).toBe(true);

    await h.restart();
    h.clock.advance(3600 * SECOND);
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(4);
    const deliveries = await h.deliveries(webhook);
    expect(deliveries.map((d: any) => [d.eventType, d.status, d.attempts])).toEqual([
      ['room.created', 'SUCCEEDED', 2],
      ['message.created', 'SUCCEEDED', 2],
    ]);
  });

  it('sends a retry left by the last run within a second or so of a restart, with no request to wake it', async () => {
    const receiver = await h.receiver();
    receiver.reply((_request, index) => ({ status: index === 0 ? 500 : 204 }));
    const webhook = await h.register({ url: receiver.url });
    h.emit('message.created');
    await h.server.runDueWebhooks();
    h.clock.advance(10 * SECOND);
    await h.restart();
    // No API call and no runDueWebhooks: the server loads its runtime, and its worker, on its own.
    await receiver.waitForRequests(2, 5000);
    expect(receiver.requests).toHaveLength(2);
    await expect.poll(async () => (await h.deliveries(webhook))[0].status).toBe('SUCCEEDED');
  });

  it('sends again, after a restart, an attempt that was in flight when the server stopped', async () => {
    const receiver = await h.receiver();
    receiver.reply('hang');
    const webhook = await h.register({ url: receiver.url });
    h.emit('message.created');
    await receiver.waitForRequests(1);
    const stopping = performance.now();
    receiver.reply({ status: 200 });
    await h.restart();
    // The stop does not wait out the 5 s timeout.
    expect(performance.now() - stopping).toBeLessThan(3000);
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1].rawBody.equals(receiver.requests[0].rawBody)).toBe(true);
    const [delivery] = await h.deliveries(webhook);
    // The interrupted attempt is not counted: it never got an answer to record.
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
  });
});
