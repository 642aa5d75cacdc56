import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient } from '../../sdk/index.js';
import { replay } from '../../testing/replay/replay.js';
import { formatReplay } from '../../testing/replay/report.js';
import { createConversation } from '../support/factories.js';
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

  it('starts from a snapshot when given one, and keeps the recorded spacing at the recorded pace', async () => {
    const dashboard = target().console;
    const projectId = session.project.id;
    const snapshots = `/v1/projects/${projectId}/environment/snapshots`;
    const conversationNames = async () =>
      (await t.api.get('/v1/chat/conversations?limit=100', { token: session.keys.development })).body.data.map(
        (c: { name: string }) => c.name,
      );
    // A snapshot of an environment holding one conversation of its own, which the recording knows nothing of.
    await dashboard.environments.reset(projectId, { environment: 'development' });
    await createConversation(t.api, session.keys.development, { name: 'from the snapshot' });
    const saved = await t.api.post(`${snapshots}?environment=development`, {
      token: session.owner.token,
      body: { name: 'one-conversation' },
    });
    expect(saved.status).toBe(201);

    const fromSnapshot = await replay(session.har, {
      target: target(),
      snapshot: 'one-conversation',
      pace: 'recorded',
    });
    expect(fromSnapshot.differences).toEqual([]);
    expect(fromSnapshot.target.snapshot).toBe('one-conversation');
    expect(await conversationNames()).toContain('from the snapshot');
    // Recorded pace: at least as long as the recording's REST calls were apart (a fast replay need not be).
    const restTimes = session.har.log.entries
      .filter((e: any) => e._switchboardKind === 'rest')
      .map((e: any) => Date.parse(e.startedDateTime));
    expect(fromSnapshot.durationMs).toBeGreaterThanOrEqual(Math.max(...restTimes) - Math.min(...restTimes));

    // Without it, the environment is reset first: the snapshot's conversation is gone.
    expect((await replay(session.har, { target: target() })).ok).toBe(true);
    expect(await conversationNames()).not.toContain('from the snapshot');
    await t.api.delete(`${snapshots}/one-conversation?environment=development`, { token: session.owner.token });
  });

  it('reports an answer that differs from the recorded one by the entry, the member, expected and got', async () => {
    const har = structuredClone(session.har);
    const entry = har.log.entries.findIndex(
      (e: any) => e.request.method === 'POST' && e.request.url.endsWith('/messages'),
    );
    const content = har.log.entries[entry].response.content;
    content.text = content.text.replace('recorded hello', 'recorded hallo');
    const result = await replay(har);
    expect(result.differences).toEqual([
      {
        entry,
        kind: 'rest',
        subject: 'POST /v1/chat/conversations/<id>/messages',
        what: 'body',
        path: 'text',
        expected: 'recorded hallo',
        got: 'recorded hello',
      },
    ]);
    expect(formatReplay(result).split('\n').slice(1)).toEqual([
      '1 difference:',
      `entry ${entry} · POST /v1/chat/conversations/<id>/messages`,
      '  body at text:',
      '    expected "recorded hallo"',
      '    got      "recorded hello"',
    ]);
  });

  it('reports the webhook attempts a fault made fail, and nothing else', async () => {
    const dashboard = target().console;
    await dashboard.faults.add(session.project.id, { environment: 'development', kind: 'webhook.failure' });
    try {
      const result = await replay(session.har, { target: target(), webhookWaitMs: 1500 });
      expect(result.ok).toBe(false);
      const missing = result.differences.filter((d) => d.what === 'attempt missing');
      const unexpected = result.differences.filter((d) => d.what === 'attempt unexpected');
      expect(missing.length + unexpected.length).toBe(result.differences.length);
      expect(missing.map((d) => (d.expected as { status: number }).status)).toEqual([500, 200]);
      // Not sent, recorded as failed (HAR's status 0): the first, and the retries the clock advance made due.
      expect(unexpected.length).toBeGreaterThanOrEqual(2);
      for (const d of unexpected) expect(d).toMatchObject({ entry: null, kind: 'webhook', got: { status: 0 } });
    } finally {
      await dashboard.faults.clear(session.project.id, { environment: 'development' });
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
