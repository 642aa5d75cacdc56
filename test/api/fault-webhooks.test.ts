import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envelopeOf, startWebhookHarness, type WebhookHarness } from '../support/webhooks.js';

/**
 * Faults injected into webhook deliveries, as the app's endpoint sees them and as the delivery log shows them. A
 * manual clock: holds, retries and expiry come due when the test moves time.
 */
let h: WebhookHarness;
beforeEach(async () => {
  h = await startWebhookHarness();
});
afterEach(() => h.dispose());

const SECOND = 1000;

async function addFault(body: Record<string, unknown>, environment = 'development') {
  const res = await h.api.post(`/v1/projects/${h.projectId}/environment/faults?environment=${environment}`, {
    token: h.owner.token,
    body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; expiresAt: string };
}
const clearFaults = () =>
  h.api.delete(`/v1/projects/${h.projectId}/environment/faults?environment=development`, { token: h.owner.token });
const eventIdOf = (request: { rawBody: Buffer }) => envelopeOf(request).id as string;

describe('injected webhook faults', () => {
  it('webhook.duplicate: the endpoint receives a delivery twice with the same evt_ id; the log shows the copy', async () => {
    const receiver = await h.receiver();
    const webhook = await h.register({ url: receiver.url });
    await addFault({ kind: 'webhook.duplicate' });
    h.emit('room.created');
    await h.server.runDueWebhooks();

    expect(receiver.requests).toHaveLength(2);
    const [first, second] = receiver.requests;
    expect(eventIdOf(second)).toBe(eventIdOf(first));
    expect(second.headers['service-event-id']).toBe(first.headers['service-event-id']);
    expect(second.rawBody.equals(first.rawBody)).toBe(true);
    const [delivery] = await h.deliveries(webhook);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
    expect(delivery.attemptLog.map((a: any) => [a.number, a.statusCode, a.injectedFault])).toEqual([
      [1, 200, null],
      [2, 200, 'webhook.duplicate'],
    ]);

    // Another environment's deliveries are not touched.
    const staging = await h.register({ url: receiver.url, environment: 'staging' });
    h.emit('room.created', 'staging');
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(3);
    expect((await h.deliveries(staging))[0].attemptLog.map((a: any) => a.injectedFault)).toEqual([null]);
  });

  it('webhook.failure: the attempt is not sent, is recorded as failed with its injected fault, and retried', async () => {
    const receiver = await h.receiver();
    const webhook = await h.register({ url: receiver.url });
    const fault = await addFault({ kind: 'webhook.failure', expiresInSeconds: 5 });
    h.emit('message.created');
    await h.server.runDueWebhooks();

    expect(receiver.requests).toHaveLength(0);
    let [delivery] = await h.deliveries(webhook);
    expect(delivery).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: null });
    expect(delivery.lastError).toMatch(/^Injected fault \(webhook\.failure\)/);
    expect(delivery.nextAttemptAt).toBe(new Date(h.clock.now() + 10 * SECOND).toISOString());
    expect(delivery.attemptLog).toEqual([
      expect.objectContaining({ number: 1, statusCode: null, requestHeaders: null, injectedFault: 'webhook.failure' }),
    ]);
    expect((await h.endpoint(webhook)).consecutiveFailures).toBe(1);

    // The retry comes on the usual schedule, after the fault expired (5 s): it goes out, and succeeds.
    h.clock.advance(10 * SECOND);
    const faults = await h.api.get(`/v1/projects/${h.projectId}/environment/faults`, { token: h.owner.token });
    expect(faults.body.data.map((f: { id: string }) => f.id)).not.toContain(fault.id);
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(1);
    [delivery] = await h.deliveries(webhook);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attempts: 2, lastError: null });
    expect(delivery.attemptLog.map((a: any) => [a.statusCode, a.injectedFault])).toEqual([
      [null, 'webhook.failure'],
      [200, null],
    ]);
  });

  it('webhook.delay: deliveries go out delayMs late, the delivery log saying why they wait', async () => {
    const receiver = await h.receiver();
    const webhook = await h.register({ url: receiver.url });
    await addFault({ kind: 'webhook.delay', delayMs: 5000 });
    const start = h.clock.now();
    h.emit('room.created');
    await h.server.runDueWebhooks();

    expect(receiver.requests).toHaveLength(0);
    let [delivery] = await h.deliveries(webhook);
    expect(delivery).toMatchObject({
      status: 'PENDING',
      attempts: 0,
      lastError: 'Injected fault (webhook.delay): held back 5000 ms before its first attempt.',
      nextAttemptAt: new Date(start + 5000).toISOString(),
    });
    h.clock.advance(4999);
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(0);
    h.clock.advance(1);
    await h.server.runDueWebhooks();
    expect(receiver.requests).toHaveLength(1);
    [delivery] = await h.deliveries(webhook);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attempts: 1, lastError: null });
    expect(delivery.attemptLog).toEqual([expect.objectContaining({ statusCode: 200, injectedFault: 'webhook.delay' })]);
  });

  it('webhook.out_of_order: a held-back delivery arrives after a later one', async () => {
    const receiver = await h.receiver();
    await h.register({ url: receiver.url });
    const fault = await addFault({ kind: 'webhook.out_of_order' });
    expect(fault).toMatchObject({ delayMs: 3000 });
    h.emit('room.created');
    await h.server.runDueWebhooks();
    // The next event is not held: it overtakes the first.
    expect((await clearFaults()).body).toEqual({ removed: 1 });
    h.emit('room.deleted');
    await h.server.runDueWebhooks();
    h.clock.advance(3000);
    await h.server.runDueWebhooks();

    expect(receiver.requests.map((r) => envelopeOf(r).type)).toEqual(['room.deleted', 'room.created']);
  });
});
