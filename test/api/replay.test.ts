import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient } from '../../sdk/index.js';
import { replay } from '../../testing/replay/replay.js';
import { harErrors } from '../support/har.js';
import { failingOnceReceiver, recordChatSession } from '../support/recorded-session.js';
import { useTestServer } from '../support/use-test-server.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';

const t = useTestServer();
let receiver: WebhookReceiver;
let session: Awaited<ReturnType<typeof recordChatSession>>;

beforeAll(async () => {
  receiver = await failingOnceReceiver();
  session = await recordChatSession(t.api, t.server.url, receiver);
});
afterAll(() => receiver?.close());

const target = () => ({
  url: t.server.url,
  console: new ConsoleClient({ baseUrl: t.server.url, token: session.owner.token }),
  projectId: session.project.id,
});

describe('replay', () => {
  it('replays a recording of chat, signaling and a retried webhook on a throw-away server: no difference', async () => {
    expect(harErrors(session.har)).toEqual([]);
    const result = await replay(session.har);
    expect(result.differences).toEqual([]);
    expect(result).toMatchObject({
      ok: true,
      target: { throwAway: true, environment: 'development' },
      replayed: { sockets: 2, framesSent: 2, clockAdvances: 1, webhookAttempts: 2 },
    });
    expect(result.replayed.rest).toBe(session.har.log.entries.filter((e: any) => e._switchboardKind === 'rest').length);
  });

  it('replays the same recording twice into the recorded environment, reset each time: no difference', async () => {
    for (let run = 0; run < 2; run++) {
      const result = await replay(session.har, { target: target() });
      expect(result.differences).toEqual([]);
      expect(result.target).toMatchObject({ throwAway: false, projectId: session.project.id });
    }
  });

  it('reports the webhook endpoint removed, and nothing else', async () => {
    const dashboard = target().console;
    await dashboard.webhooks.delete(session.project.id, session.webhook.id, { environment: 'development' });
    const result = await replay(session.har, { target: target(), webhookWaitMs: 1500 });
    expect(result.ok).toBe(false);
    expect(result.differences.map((d) => [d.kind, d.what, d.subject])).toEqual([
      ['webhook', 'attempt missing', `webhook room.created → ${receiver.url}`],
      ['webhook', 'attempt missing', `webhook room.created → ${receiver.url}`],
    ]);
    expect(result.differences.map((d) => (d.expected as { status: number }).status)).toEqual([500, 200]);
  });
});
