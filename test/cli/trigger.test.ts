import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../server/webhooks/catalogue.js';
import { expectApiError, expectUsageError, ok, useCli } from '../support/cli.js';
import { createKey, registerWebhook } from '../support/factories.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { envelopeOf } from '../support/webhooks.js';

const cli = useCli();
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe.concurrent('switchboard trigger', () => {
  it('triggers the event in the environment, prints what it created, and the webhook gets the real thing', async () => {
    const u = await cli.withProject('Triggers');
    await registerWebhook(cli.api, u.projectId, u.account, {
      url: receiver.url,
      environment: 'staging',
      events: ['message.created'],
    });
    const out = ok(await u.run('trigger', 'message.created', '--environment', 'stg'));
    expect(out).toContain(`Triggered message.created in staging of ${u.projectId}.`);
    const conversation =
      /^ {2}Conversation: +(conv_\w+) "Triggered: message\.created \(\w{8}\)" \(members: trigger-alice, trigger-bob\)$/m.exec(
        out,
      );
    const message = /^ {2}Message: +(msg_\w+) from trigger-alice$/m.exec(out);
    expect(conversation, out).not.toBeNull();
    expect(message, out).not.toBeNull();
    expect(out).toContain('Events emitted: conversation.created, member.added ×2, message.created');

    const key = (await createKey(cli.api, u.projectId, u.account, 'staging')).key;
    const read = await cli.api.get(`/v1/chat/conversations/${conversation?.[1]}/messages`, { token: key });
    expect(read.body.data.map((m: { id: string }) => m.id)).toEqual([message?.[1]]);
    const delivered = await (async () => {
      for (let i = 0; i < 250; i++) {
        const found = receiver.requests.map(envelopeOf).find((e) => e.data.message?.id === message?.[1]);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    expect(delivered).toMatchObject({ type: 'message.created', environment: 'STAGING', projectId: u.projectId });

    // --json: the API's answer; development by default.
    const json = await u.json('trigger', 'live_stream.ended');
    expect(json).toMatchObject({
      event: 'live_stream.ended',
      environment: 'development',
      objects: { liveStream: { id: expect.stringMatching(/^ls_/), status: 'ENDED' } },
      events: ['room.created', 'conversation.created', 'live_stream.started', 'live_stream.ended'],
    });
  });

  it('lists what can be triggered', async () => {
    const u = await cli.withProject();
    const out = ok(await u.run('trigger', '--list'));
    expect(out).toMatch(/^EVENT +WHAT IT DOES$/m);
    for (const event of EVENT_TYPES) expect(out).toMatch(new RegExp(`^${event.replace('.', '\\.')} +\\S`, 'm'));
    const json = await u.json('trigger', '--list');
    expect(json.data.map((t: { event: string }) => t.event)).toEqual(EVENT_TYPES);
  });

  it('refuses production, an unknown event (suggesting the closest), and a missing one', async () => {
    const u = await cli.withProject();
    expectApiError(await u.run('trigger', 'room.created', '--environment', 'prod'), 'SERVICE_PRODUCTION_ENVIRONMENT');
    expectUsageError(
      await u.run('trigger', 'message.create'),
      /^error: no event "message\.create" can be triggered; did you mean message\.created\? \(`switchboard trigger --list` shows them all\)\n/,
    );
    expectUsageError(await u.run('trigger', 'room.delete'), /did you mean room\.deleted\?/);
    expectUsageError(await u.run('trigger', 'livestream.started'), /did you mean live_stream\.started\?/);
    // Nothing near: no guess, the list.
    expectUsageError(
      await u.run('trigger', 'payment.succeeded'),
      /^error: no event "payment\.succeeded" can be triggered \(`switchboard trigger --list` shows them all\)\n/,
    );
    expectUsageError(
      await u.run('trigger'),
      /give the event to trigger, e\.g\. `switchboard trigger message\.created`/,
    );
    expectUsageError(await u.run('trigger', 'room.created', '--list'), /give an event to trigger or --list, not both/);
  });
});
