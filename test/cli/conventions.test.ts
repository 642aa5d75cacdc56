import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { expectUsageError, ok, runCli, useCli } from '../support/cli.js';

const cli = useCli();

/** Every command of the tool, as typed. */
const COMMANDS = [
  [],
  ['serve'],
  ['login'],
  ['logout'],
  ['whoami'],
  ['projects'],
  ['projects', 'list'],
  ['projects', 'create'],
  ['projects', 'use'],
  ['keys'],
  ['keys', 'create'],
  ['keys', 'list'],
  ['keys', 'revoke'],
  ['members'],
  ['members', 'list'],
  ['members', 'add'],
  ['members', 'set-role'],
  ['members', 'remove'],
  ['audit'],
  ['status'],
  ['rooms'],
  ['rooms', 'list'],
  ['rooms', 'create'],
  ['webhooks'],
  ['webhooks', 'add'],
  ['webhooks', 'list'],
  ['webhooks', 'update'],
  ['webhooks', 'delete'],
  ['webhooks', 'deliveries'],
  ['webhooks', 'resend'],
  ['webhooks', 'test'],
  ['webhooks', 'listen'],
  ['tail'],
  ['connections'],
  ['connections', 'list'],
  ['connections', 'show'],
  ['errors'],
  ['errors', 'list'],
  ['errors', 'show'],
  ['usage'],
  ['diagnostics'],
  ['env'],
  ['env', 'reset'],
  ['snapshot'],
  ['snapshot', 'save'],
  ['snapshot', 'list'],
  ['snapshot', 'restore'],
  ['snapshot', 'delete'],
  ['clock'],
  ['clock', 'show'],
  ['clock', 'advance'],
  ['clock', 'reset'],
  ['faults'],
  ['faults', 'list'],
  ['faults', 'add'],
  ['faults', 'remove'],
  ['faults', 'clear'],
  ['faults', 'drop-sockets'],
  ['trigger'],
];

describe.concurrent('switchboard conventions', () => {
  it('answers --help on every command with its usage, exit code 0', async () => {
    const home = cli.newHome();
    const results = await Promise.all(COMMANDS.map((command) => runCli([...command, '--help'], { home })));
    results.forEach((result, i) => {
      const usage = ['Usage: switchboard', ...COMMANDS[i]].join(' ');
      expect(ok(result), COMMANDS[i].join(' ')).toContain(usage);
    });
    expect(results[0].stdout).toMatch(/--url <url>[\s\S]*SWITCHBOARD_URL[\s\S]*--json/);
  }, 60_000); // one process per command, on a shared machine

  it('prints its version', async () => {
    expect(ok(await runCli(['--version'], { home: cli.newHome() })).trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits with code 2 on a usage error: unknown command or option, missing argument, bad --url', async () => {
    const home = cli.newHome();
    expectUsageError(await runCli(['frobnicate'], { home }), /unknown command 'frobnicate'/);
    expectUsageError(await runCli(['projects', 'list', '--colour'], { home }), /unknown option '--colour'/);
    expectUsageError(await runCli(['projects', 'create'], { home }), /missing required argument 'name'/);
    expectUsageError(await runCli(['keys', 'create'], { home }), /required option '--name <name>' not specified/);
    expectUsageError(await runCli([], { home }), /Usage: switchboard/);
    expectUsageError(
      await runCli(['--url', 'ftp://example.test', 'whoami'], { home }),
      /--url must be an http:\/\/ or https:\/\/ URL/,
    );
    expectUsageError(
      await runCli(['whoami'], { home, env: { SWITCHBOARD_URL: 'not a url' } }),
      /SWITCHBOARD_URL must be an http:\/\/ or https:\/\/ URL/,
    );
  });

  it('picks the server with --url, else SWITCHBOARD_URL, else 127.0.0.1:4700', async () => {
    const u = await cli.signedIn();
    const status = await u.json('status');
    expect(status.url).toBe(cli.server.url);
    const env = { SWITCHBOARD_URL: 'http://127.0.0.1:9' };
    // The flag wins over the variable (and the session is stored under the URL, with or without a slash).
    const viaFlag = await runCli(['--json', '--url', `${cli.server.url}/`, 'status'], { home: u.home, env });
    expect(JSON.parse(ok(viaFlag))).toMatchObject({ url: cli.server.url, user: { email: u.account.email } });
    expect(JSON.parse(ok(await runCli(['--json', 'status'], { home: u.home }))).url).toBe('http://127.0.0.1:4700');
  });

  it('says when the server cannot be reached, with exit code 1', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const url = `http://127.0.0.1:${port}`;
    const result = await runCli(['login', '--email', 'a@example.test', '--password', 'whatever!'], {
      home: cli.newHome(),
      env: { SWITCHBOARD_URL: url },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^error: cannot reach the server at ${url} \\(ECONNREFUSED\\): is it running\\? Start it with`),
    );
  });
});
