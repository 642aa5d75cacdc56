import { describe, expect, it } from 'vitest';
import { expectApiError, expectUsageError, ok, useCli } from '../support/cli.js';

const cli = useCli();

describe.concurrent('switchboard clock', () => {
  it('acts on development without --environment, as every command does', async () => {
    const u = await cli.withProject('Clock default');
    expect(ok(await u.run('clock', 'show'))).toMatch(
      /^The clock of development in prj_\w+:\nNow: .*\nRuns: +real time\n/,
    );
    expect(await u.json('clock', 'advance', '1h')).toMatchObject({ environment: 'development', offsetMs: 3_600_000 });
    expect(await u.json('clock', 'show')).toMatchObject({ environment: 'development', offsetMs: 3_600_000 });
    expect(await u.json('clock', 'show', '--environment', 'stg')).toMatchObject({
      environment: 'staging',
      offsetMs: 0,
    });
    expect(await u.json('clock', 'reset')).toMatchObject({ environment: 'development', offsetMs: 0 });
  });

  it('advances, shows and resets the clock of the environment named, in words and in --json', async () => {
    const u = await cli.withProject('Clock');
    expect(ok(await u.run('clock', 'show', '--environment', 'dev'))).toMatch(
      new RegExp(
        `^The clock of development in ${u.projectId}:\\nNow: +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ\\nRuns: +real time\\nAdvanced at: +—\\n$`,
      ),
    );

    const advanced = ok(await u.run('clock', 'advance', '1h30m', '--environment', 'development'));
    expect(advanced).toContain(`Advanced the clock of development in ${u.projectId} by 1 h 30 min.`);
    expect(advanced).toMatch(/^Runs: +1 h 30 min ahead of real time$/m);
    const json = await u.json('clock', 'advance', '90s', '--environment', 'development');
    expect(json).toMatchObject({
      environment: 'development',
      offsetMs: (5400 + 90) * 1000,
      advancedAt: expect.any(String),
    });
    expect(Date.parse(json.now) - Date.now()).toBeGreaterThan(5400 * 1000);
    expect(await u.json('clock', 'show', '--environment', 'development', '--project', u.projectId)).toMatchObject({
      offsetMs: 5490 * 1000,
    });
    // Staging keeps real time.
    expect(await u.json('clock', 'show', '--environment', 'staging')).toMatchObject({ offsetMs: 0, advancedAt: null });

    expect(ok(await u.run('clock', 'reset', '--environment', 'development'))).toContain(
      `The clock of development in ${u.projectId} is back on real time.`,
    );
    expect(await u.json('clock', 'show', '--environment', 'development')).toMatchObject({
      offsetMs: 0,
      advancedAt: null,
    });
    for (const duration of ['15m', '2h', '1d']) ok(await u.run('clock', 'advance', duration, '--environment', 'stg'));
    expect(await u.json('clock', 'show', '--environment', 'staging')).toMatchObject({
      offsetMs: (15 * 60 + 2 * 3600 + 86400) * 1000,
    });
  });

  it('refuses production or a malformed duration', async () => {
    const u = await cli.withProject('Clock refusals');
    expectApiError(await u.run('clock', 'advance', '1h', '--environment', 'prod'), 'SERVICE_PRODUCTION_ENVIRONMENT');
    expectApiError(await u.run('clock', 'reset', '--environment', 'production'), 'SERVICE_PRODUCTION_ENVIRONMENT');
    for (const duration of ['2 hours', '1.5h', '30m2h', '0s', '2', 'h', '401d'])
      expectUsageError(
        await u.run('clock', 'advance', duration, '--environment', 'development'),
        /Give a duration (such as 90s|from 1s)/,
      );
    expect(await u.json('clock', 'show', '--environment', 'production')).toMatchObject({ offsetMs: 0 });
  });
});
