import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectApiError, expectUsageError, ok, useCli } from '../support/cli.js';
import { createKey, createRoom } from '../support/factories.js';
import { harErrors } from '../support/har.js';

const cli = useCli();

describe.concurrent('switchboard record', () => {
  it('starts, lists, stops and downloads a recording as a HAR file', async () => {
    const u = await cli.withProject('Recordings');
    const key = (await createKey(cli.api, u.projectId, u.account, 'development')).key;

    const started = ok(await u.run('record', 'start', '--max-size', '5MB', '--max-duration', '30m'));
    const id = /(rec_[0-9A-Z]{26})/.exec(started)?.[1] as string;
    expect(started).toBe(`Recording development: ${id}, until \`switchboard record stop\`, 5.0 MiB or 1800 s.\n`);
    expectApiError(await u.run('record', 'start'), 'SERVICE_RECORDING_IN_PROGRESS');
    const room = await createRoom(cli.api, key, 'recorded-by-the-cli');

    const table = ok(await u.run('record', 'list'));
    expect(table.split('\n')[0]).toMatch(/^ID +STATE +ENTRIES +SIZE +STARTED$/);
    expect(table).toMatch(new RegExp(`${id} +recording`));

    const stopped = ok(await u.run('record', 'stop'));
    expect(stopped).toMatch(
      new RegExp(`^${id} stopped: 1 entries, .+\\. Download it: switchboard record download ${id}\\n$`),
    );
    expect(ok(await u.run('record', 'stop', id))).toMatch(/stopped: 1 entries/);

    const file = join(u.home, 'session.har');
    expect(ok(await u.run('record', 'download', id, '--output', file))).toBe(`Wrote ${file} (1 entries).\n`);
    const har = JSON.parse(readFileSync(file, 'utf8'));
    expect(harErrors(har)).toEqual([]);
    expect(har.log.entries[0].request.url).toMatch(/\/v1\/rooms$/);
    expect(JSON.parse(har.log.entries[0].response.content.text).id).toBe(room.id);
    expect(JSON.stringify(har)).not.toContain(key);
  });

  it('refuses production, bad limits, and stopping where nothing records', async () => {
    const u = await cli.withProject('Recordings');
    expectApiError(await u.run('record', 'start', '--environment', 'production'), 'SERVICE_PRODUCTION_ENVIRONMENT');
    expectUsageError(await u.run('record', 'start', '--max-size', '2GB'), /Give a size from 1KB to 100MB/);
    expectUsageError(await u.run('record', 'start', '--max-duration', '2d'), /Give a duration from 1s to 24h/);
    const stopped = await u.run('record', 'stop', '--environment', 'staging');
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toMatch(/staging is not being recorded/);
  });
});
