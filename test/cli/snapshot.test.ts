import { describe, expect, it } from 'vitest';
import { expectApiError, expectUsageError, ok, useCli } from '../support/cli.js';
import { createKey, createRoom } from '../support/factories.js';

const cli = useCli();

const roomsOf = async (key: string) => (await cli.api.get('/v1/rooms', { token: key })).body.data.length;

describe('switchboard snapshot', () => {
  it('saves, lists, restores (with --yes) and deletes a snapshot of an environment', async () => {
    const u = await cli.withProject('Snapshots');
    const key = (await createKey(cli.api, u.projectId, u.account, 'staging')).key;
    await createRoom(cli.api, key);

    expect(ok(await u.run('snapshot', 'save', 'one-room', '--environment', 'staging'))).toMatch(
      /^Saved staging as one-room \(\d+ bytes\): Rooms 1\b/m,
    );
    expect(ok(await u.run('snapshot', 'list', '--environment', 'staging'))).toMatch(/^one-room .+ Rooms 1\b/m);
    expect(await u.json('snapshot', 'list')).toEqual({ data: [] }); // development's
    await createRoom(cli.api, key);
    expect(await roomsOf(key)).toBe(2);

    expectUsageError(
      await u.run('snapshot', 'restore', 'one-room', '--environment', 'staging'),
      /--yes is required when no terminal is attached to confirm on/,
    );
    expectUsageError(await u.run('snapshot', 'restore', 'one-room', '--yes'), /required option '--environment <env>'/);
    const out = ok(await u.run('snapshot', 'restore', 'one-room', '--environment', 'staging', '--yes'));
    expect(out).toContain(`Restored one-room into staging of ${u.projectId}.`);
    expect(out).toMatch(/^ {2}Removed: +Rooms 2\b/m);
    expect(out).toMatch(/^ {2}Restored: +Rooms 1\b/m);
    expect(await roomsOf(key)).toBe(1);

    expect(ok(await u.run('snapshot', 'delete', 'one-room', '--environment', 'staging'))).toContain(
      'Deleted snapshot one-room of staging.',
    );
    expectApiError(
      await u.run('snapshot', 'restore', 'one-room', '--environment', 'staging', '--yes'),
      'SERVICE_SNAPSHOT_NOT_FOUND',
    );
    expectApiError(await u.run('snapshot', 'save', 'x', '--environment', 'prod'), 'SERVICE_PRODUCTION_ENVIRONMENT');
  });
});
