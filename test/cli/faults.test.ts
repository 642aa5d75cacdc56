import { describe, expect, it } from 'vitest';
import { expectApiError, expectUsageError, ok, useCli } from '../support/cli.js';
import { createKey, mintChatToken } from '../support/factories.js';
import { connectRealtime } from '../support/socket-client.js';

const cli = useCli();

describe.concurrent('switchboard faults', () => {
  it('adds, lists, removes and clears faults of an environment, for people and with --json', async () => {
    const u = await cli.withProject('Faults');
    const staging = (await createKey(cli.api, u.projectId, u.account, 'staging')).key;

    const added = ok(
      await u.run('faults', 'add', 'api.latency', '--delay', '2s', '--percent', '50', '--environment', 'stg'),
    );
    expect(added).toMatch(/^Injected api\.latency \(50%, 2000 ms\) into staging: flt_[0-9A-Z]{26}, until \d{4}-/);
    const unavailable = await u.json(
      'faults',
      'add',
      'api.unavailable',
      '--expires',
      '90s',
      '--environment',
      'staging',
    );
    expect(unavailable).toMatchObject({ kind: 'api.unavailable', percent: 100, delayMs: null });
    expect(Date.parse(unavailable.expiresAt) - Date.parse(unavailable.createdAt)).toBe(90_000);
    // The app's key of staging now gets 503s.
    expect((await cli.api.get('/v1/rooms', { token: staging })).status).toBe(503);

    const table = ok(await u.run('faults', 'list', '--environment', 'staging'));
    expect(table.split('\n')[0]).toMatch(/^ID +KIND +PERCENT +DELAY +EXPIRES$/);
    expect(table).toMatch(/api\.unavailable +100%/);
    expect(table).toMatch(/api\.latency +50% +2000 ms/);
    expect(ok(await u.run('faults', 'list'))).toBe('No faults in development.\n');
    expect((await u.json('faults', 'list', '--environment', 'staging')).data).toHaveLength(2);

    expect(ok(await u.run('faults', 'remove', unavailable.id, '--environment', 'staging'))).toBe(
      `Removed fault ${unavailable.id} from staging.\n`,
    );
    expect((await cli.api.get('/v1/rooms', { token: staging })).status).toBe(200);
    expectApiError(
      await u.run('faults', 'remove', unavailable.id, '--environment', 'staging'),
      'SERVICE_FAULT_NOT_FOUND',
    );
    expect(await u.json('faults', 'clear', '--environment', 'staging')).toEqual({ removed: 1 });
    expect(ok(await u.run('faults', 'clear', '--environment', 'staging'))).toBe('Removed 0 fault(s) from staging.\n');
  });

  it('refuses production, unknown kinds and bad values, naming the flags', async () => {
    const u = await cli.withProject('Faults');
    expectApiError(
      await u.run('faults', 'add', 'webhook.duplicate', '--environment', 'production'),
      'SERVICE_PRODUCTION_ENVIRONMENT',
    );
    expectUsageError(
      await u.run('faults', 'add', 'webhook.explode', '--environment', 'staging'),
      /Allowed choices are/,
    );
    expectUsageError(
      await u.run('faults', 'add', 'api.latency', '--delay', 'soon', '--environment', 'staging'),
      /Give a duration such as 500ms/,
    );
    expectUsageError(
      await u.run('faults', 'add', 'webhook.failure', '--percent', '101', '--environment', 'staging'),
      /Give a whole number from 1 to 100/,
    );
    // The API's rules about delayMs and expiresInSeconds, said with the flags' names and units (issue 46).
    expectUsageError(
      await u.run('faults', 'add', 'api.latency', '--environment', 'staging'),
      /^error: api\.latency needs --delay: how long, e\.g\. --delay 500ms \(at most 60s\)\n$/,
    );
    expectUsageError(await u.run('faults', 'add', 'webhook.delay'), /webhook\.delay needs --delay/);
    expectUsageError(
      await u.run('faults', 'add', 'webhook.duplicate', '--delay', '2s'),
      /^error: --delay does not apply to webhook\.duplicate; it is for webhook\.delay, api\.latency, webhook\.out_of_order\n$/,
    );
    expectUsageError(
      await u.run('faults', 'add', 'api.latency', '--delay', '90s'),
      /option '--delay <duration>' argument '90s' is invalid\. Give a duration of at most 60s\./,
    );
    expectUsageError(
      await u.run('faults', 'add', 'api.unavailable', '--expires', '2d'),
      /option '--expires <duration>' argument '2d' is invalid\. Give a duration of at most 24h\./,
    );
    expect(await u.json('faults', 'list')).toEqual({ data: [] });
  });

  it('acts on development without --environment, as every command does', async () => {
    const u = await cli.withProject('Faults default');
    const added = await u.json('faults', 'add', 'webhook.out_of_order');
    expect(added).toMatchObject({ kind: 'webhook.out_of_order', environment: 'development', delayMs: 3000 });
    expect(ok(await u.run('faults', 'list'))).toMatch(/webhook\.out_of_order +100% +3000 ms/);
    expect(ok(await u.run('faults', 'drop-sockets'))).toMatch(/^Closed 0 socket\(s\) of development on this server/);
    expect(ok(await u.run('faults', 'remove', added.id))).toBe(`Removed fault ${added.id} from development.\n`);
    await u.json('faults', 'add', 'webhook.failure', '--percent', '10');
    expect(ok(await u.run('faults', 'clear'))).toBe('Removed 1 fault(s) from development.\n');
  });

  it('drops an environment’s sockets with drop-sockets', async () => {
    const u = await cli.withProject('Faults');
    const staging = (await createKey(cli.api, u.projectId, u.account, 'staging')).key;
    const chat = connectRealtime(cli.server.url, await mintChatToken(cli.api, staging, 'alice'));
    await chat.next('connected');
    expect(ok(await u.run('faults', 'drop-sockets', '--kind', 'realtime', '--environment', 'staging'))).toBe(
      'Closed 1 socket(s) of staging on this server (code 4206); other servers close their share of theirs.\n',
    );
    expect(await chat.closed).toEqual({ code: 4206, reason: 'fault injected' });
    expect(await u.json('faults', 'drop-sockets', '--percent', '10', '--environment', 'staging')).toEqual({
      closed: 0,
    });
    expectUsageError(
      await u.run('faults', 'drop-sockets', '--kind', 'everything', '--environment', 'staging'),
      /Allowed choices are realtime, signaling, all/,
    );
  });
});
