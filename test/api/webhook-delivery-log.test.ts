import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMember, expectError, registerUser } from '../support/factories.js';
import { installStatementRecorder, queryPlan } from '../support/statement-recorder.js';
import { sqliteOnly } from '../support/test-store.js';
import { startWebhookHarness, type WebhookHarness } from '../support/webhooks.js';

// Before any server starts: its statement cache keeps the statements the recorder hands out.
const recorder = installStatementRecorder();

let h: WebhookHarness;
beforeEach(async () => {
  h = await startWebhookHarness();
});
afterEach(() => h.dispose());

const logPath = (webhookId: string) => `/v1/projects/${h.projectId}/webhooks/${webhookId}/deliveries`;

/** Deliveries of three types to one endpoint that answers 200 and 500 in turn: statuses and types mixed. */
async function mixedLog() {
  const receiver = await h.receiver();
  receiver.reply((_request, index) => ({ status: index % 2 === 0 ? 200 : 500, body: `answer ${index}` }));
  const webhook = await h.register({ url: receiver.url });
  for (const type of [
    'message.created',
    'room.created',
    'message.created',
    'room.deleted',
    'message.created',
  ] as const) {
    h.emit(type);
    await h.server.runDueWebhooks();
  }
  return { receiver, webhook };
}

describe('the delivery log, filtered', () => {
  it('filters by event type, and by status and event type together, paging within the filter', async () => {
    const { webhook } = await mixedLog();
    const list = async (query: string) =>
      (await h.api.get(`${logPath(webhook.id)}?${query}`, { token: h.owner.token })).body;
    const summary = (page: { data: { eventType: string; status: string }[] }) =>
      page.data.map((d) => `${d.eventType} ${d.status}`);

    expect(summary(await list('eventType=message.created'))).toEqual([
      'message.created SUCCEEDED',
      'message.created SUCCEEDED',
      'message.created SUCCEEDED',
    ]);
    expect(summary(await list('eventType=room.created'))).toEqual(['room.created PENDING']);
    expect(summary(await list('eventType=room.created&status=SUCCEEDED'))).toEqual([]);
    expect(summary(await list('eventType=room.deleted&status=PENDING'))).toEqual(['room.deleted PENDING']);

    const first = await list('eventType=message.created&limit=2');
    expect(first.data).toHaveLength(2);
    const second = await list(`eventType=message.created&limit=2&cursor=${first.nextCursor}`);
    expect(summary(second)).toEqual(['message.created SUCCEEDED']);
    expect(second.nextCursor).toBeNull();

    expectError(
      await h.api.get(`${logPath(webhook.id)}?eventType=message.exploded`, { token: h.owner.token }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
  });

  it.skipIf(sqliteOnly("the delivery log's query plans (SQLite's EXPLAIN QUERY PLAN)"))(
    'reads each filtered page from an index, never sorting the endpoint’s log',
    async () => {
      const { webhook } = await mixedLog();
      const file = join(h.server.dataDir, 'switchboard.db');
      for (const [query, index] of [
        ['status=SUCCEEDED', 'webhook_deliveries_log_status_idx'],
        ['eventType=room.created', 'webhook_deliveries_log_type_idx'],
        ['', 'webhook_deliveries_log_idx'],
      ]) {
        const statements = await recorder.record(() =>
          h.api.get(`${logPath(webhook.id)}?limit=2&${query}`, { token: h.owner.token }),
        );
        // The worker's own query for due deliveries may run meanwhile; the page's is the other one.
        const page = statements.find(
          (s) =>
            /from "webhook_deliveries"/.test(s.sql) && /order by/.test(s.sql) && !/"next_attempt_at" <=/.test(s.sql),
        );
        expect(page, query).toBeDefined();
        const plan = queryPlan(file, page as NonNullable<typeof page>);
        expect(plan.join('\n'), query).toContain(`USING INDEX ${index}`);
        expect(plan.join('\n'), query).not.toContain('TEMP B-TREE');
      }
    },
  );
});

describe('what an attempt sent', () => {
  it('logs each attempt’s headers as sent and gives the body, byte for byte, to webhooks:manage only', async () => {
    const { receiver, webhook } = await mixedLog();
    const [delivery] = (await h.api.get(`${logPath(webhook.id)}?eventType=room.created`, { token: h.owner.token })).body
      .data;
    const request = receiver.requests[1];
    expect(delivery.attemptLog[0].requestHeaders).toMatchObject({
      'service-signature': request.headers['service-signature'],
      'service-event-id': delivery.eventId,
      'service-event-type': 'room.created',
    });
    expect(delivery.attemptLog[0].responseBody).toBe('answer 1');

    const bodyPath = `${logPath(webhook.id)}/${delivery.id}/body`;
    const body = await h.api.get(bodyPath, { token: h.owner.token });
    expect(body.status).toBe(200);
    expect(body.body).toEqual({
      deliveryId: delivery.id,
      contentType: 'application/json',
      body: request.rawBody.toString('utf8'),
    });

    const [viewer, developer] = [await registerUser(h.api), await registerUser(h.api)];
    await addMember(h.api, h.projectId, h.owner, viewer, 'VIEWER');
    await addMember(h.api, h.projectId, h.owner, developer, 'DEVELOPER');
    expectError(await h.api.get(bodyPath, { token: viewer.token }), 403, 'SERVICE_PERMISSION_DENIED');
    expect((await h.api.get(bodyPath, { token: developer.token })).status).toBe(200);

    expectError(
      await h.api.get(`${logPath(webhook.id)}/whd_nope/body`, { token: h.owner.token }),
      404,
      'SERVICE_WEBHOOK_DELIVERY_NOT_FOUND',
    );
    expectError(
      await h.api.get(`${bodyPath}?environment=staging`, { token: h.owner.token }),
      404,
      'SERVICE_WEBHOOK_NOT_FOUND',
    );
  });
});
