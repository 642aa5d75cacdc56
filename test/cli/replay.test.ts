import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectUsageError, ok, runCli, useCli } from '../support/cli.js';
import { registerWebhook } from '../support/factories.js';
import { failingOnceReceiver, recordChatSession } from '../support/recorded-session.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';

const cli = useCli();
let receiver: WebhookReceiver;
let file: string;

beforeAll(async () => {
  receiver = await failingOnceReceiver();
  const session = await recordChatSession(cli.api, cli.server.url, receiver);
  file = join(cli.newHome(), 'session.har');
  writeFileSync(file, JSON.stringify(session.har));
});
afterAll(() => receiver?.close());

describe('switchboard replay', () => {
  it('replays a recording on a throw-away server it starts: no difference, exit 0', async () => {
    // No --url and no SWITCHBOARD_URL: the command starts its own server.
    const stdout = ok(await runCli(['replay', file], { home: cli.newHome() }));
    expect(stdout).toMatch(
      /^Replayed \d+ REST calls, 2 sockets \(2 frames sent, \d+ received\), 1 clock advance; 2 webhook attempts made\. Against a throw-away server \(http:\/\/127\.0\.0\.1:\d+\), fast pace, in [\d.]+ s\.\nNo difference\.\n$/,
    );
  });

  it('into a project without the webhook endpoint: the missing attempts, exit 1, as text and as JSON; then none', async () => {
    const u = await cli.withProject('Replayed');
    // The missing attempts are waited for: a second, not the default five.
    const differs = await u.run('replay', file, '--webhook-wait', '1s');
    expect(differs.code).toBe(1);
    expect(differs.stderr).toBe('error: the replay differs from the recording (2 differences)\n');
    const lines = differs.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`Against development of ${u.projectId} at http://`));
    expect(lines.slice(1, 6)).toEqual([
      '2 differences:',
      expect.stringMatching(new RegExp(`^entry \\d+ · webhook room\\.created → ${receiver.url}$`)),
      expect.stringMatching(/^ {2}attempt missing: \{"status":500,"body":\{.*"type":"room\.created"/),
      expect.stringMatching(/^entry \d+ · webhook room\.created/),
      expect.stringMatching(/^ {2}attempt missing: \{"status":200,/),
    ]);

    const json = await u.run('--json', 'replay', file, '--pace', 'fast', '--webhook-wait', '1s');
    expect(json.code).toBe(1);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({ ok: false, pace: 'fast', target: { projectId: u.projectId, throwAway: false } });
    expect(result.differences.map((d: { kind: string; what: string }) => `${d.kind} ${d.what}`)).toEqual([
      'webhook attempt missing',
      'webhook attempt missing',
    ]);

    await registerWebhook(cli.api, u.projectId, u.account, { url: receiver.url, events: ['room.created'] });
    expect(ok(await u.run('replay', file))).toMatch(/\nNo difference\.\n$/);
  }, 60_000);

  it('refuses production and flags that need a server', async () => {
    const u = await cli.withProject('Replayed');
    const refused = await u.run('replay', file, '--environment', 'production');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/production is refused/);
    const alone = await runCli(['replay', file, '--snapshot', 'seeded'], { home: cli.newHome() });
    expect(alone.code).toBe(1);
    expect(alone.stderr).toMatch(/give its --url/);
    expectUsageError(await u.run('replay', file, '--pace', 'slow'), /argument 'slow' is invalid/);
  }, 40_000);
});
