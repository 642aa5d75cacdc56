// `switchboard secret-key`: a new key and the steps to rotate to it; a stopped SQLite server's data folder given a new
// key (what its next start does with it: test/db/secret-key-rotation.test.ts).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectUsageError, ok, runCli } from '../support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'switchboard-secret-key-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const run = (...args: string[]) => runCli(args, { home: work });

describe('switchboard secret-key', () => {
  it('generate prints a new key on stdout and the steps of a rotation on stderr', async () => {
    const result = await run('secret-key', 'generate');
    expect(ok(result)).toMatch(/^[A-Za-z0-9+/]{64}\n$/);
    expect(result.stderr).toContain('--secret-key-file NEW --previous-secret-key-file OLD');
  });

  it('rotate moves the data folder key aside and writes a new one, once', async () => {
    const dataDir = join(work, 'data');
    expect((await run('secret-key', 'rotate', '--data-dir', dataDir)).stderr).toContain(
      'has no webhook-secrets.key: there is no key to rotate',
    );
    const folder = mkdtempSync(join(work, 'data-'));
    writeFileSync(join(folder, 'webhook-secrets.key'), Buffer.alloc(32, 1), { mode: 0o600 });
    expect(ok(await run('secret-key', 'rotate', '--data-dir', folder))).toContain(
      'Moved webhook-secrets.key to webhook-secrets.previous.key and wrote a new webhook-secrets.key.',
    );
    expect(existsSync(join(folder, 'webhook-secrets.previous.key'))).toBe(true);
    const again = await run('secret-key', 'rotate', '--data-dir', folder);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is under way: start the server and let it finish');
  });

  it('serve refuses a previous secret key without PostgreSQL', async () => {
    const result = await runCli(['serve', '--data-dir', join(work, 'serve'), '--port', '0'], {
      home: work,
      env: { SWITCHBOARD_PREVIOUS_SECRET_KEY: 'a-previous-secret-key-of-the-cli-test-0123456789' },
    });
    expectUsageError(
      result,
      /a previous secret key is for a server on PostgreSQL; on SQLite, `switchboard secret-key rotate --data-dir`/,
    );
  });
});
