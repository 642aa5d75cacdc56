import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  expectApiError,
  expectUsageError,
  ok,
  runCli,
  runCliOnTerminal,
  terminalUnavailable,
  useCli,
} from '../support/cli.js';
import { expectError, PASSWORD } from '../support/factories.js';
import { startTestServer } from '../support/server.js';

const cli = useCli();

const credentialsOf = (configDir: string) => JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8'));

describe.concurrent('switchboard login', () => {
  it('signs in with --email and --password and keeps the session in credentials.json, mode 0600', async () => {
    const u = await cli.user();
    const out = ok(await u.run('login', '--email', u.account.email.toUpperCase(), '--password', PASSWORD));
    expect(out).toBe(`Signed in to ${cli.server.url} as ${u.account.email}.\n`);

    const file = join(u.configDir, 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(u.configDir).mode & 0o777).toBe(0o700);
    const session = credentialsOf(u.configDir).servers[cli.server.url].session;
    expect(session.email).toBe(u.account.email);
    expect((await cli.api.get('/v1/whoami', { token: session.token })).body.user.id).toBe(u.account.id);
  });

  it('prints who signed in with --json, but not the session token', async () => {
    const u = await cli.user();
    const result = await u.json('login', '--email', u.account.email, '--password', PASSWORD);
    expect(result).toEqual({
      url: cli.server.url,
      user: { id: u.account.id, email: u.account.email, name: null },
      expiresAt: expect.any(String),
    });
  });

  it.skipIf(terminalUnavailable('the login prompt test'))(
    'asks on a terminal for what is missing, the password without echo',
    async () => {
      const u = await cli.user();
      const env = { SWITCHBOARD_URL: cli.server.url };
      const both = await runCliOnTerminal(['login'], {
        home: u.home,
        env,
        answers: [
          ['Email: ', u.account.email],
          ['Password: ', PASSWORD],
        ],
      });
      expect(both.code, both.stdout).toBe(0);
      expect(both.stdout).toContain(u.account.email);
      expect(both.stdout).not.toContain(PASSWORD);
      expect(both.stdout).toContain(`Signed in to ${cli.server.url} as ${u.account.email}.`);

      const passwordOnly = await runCliOnTerminal(['login', '--email', u.account.email], {
        home: u.home,
        env,
        answers: [['Password: ', PASSWORD]],
      });
      expect(passwordOnly.code, passwordOnly.stdout).toBe(0);
      expect(passwordOnly.stdout).not.toContain('Email: ');
      expect(passwordOnly.stdout).not.toContain(PASSWORD);
      expect(JSON.parse(ok(await u.run('--json', 'whoami'))).user.id).toBe(u.account.id);
    },
  );

  it('is a usage error (exit 2) when a value is missing and no terminal is attached to ask for it', async () => {
    const u = await cli.user();
    expectUsageError(await u.run('login', '--email', u.account.email), /--password is required when no terminal/);
    expectUsageError(await u.run('login', '--password', PASSWORD), /--email is required when no terminal/);
    expectUsageError(await u.run('login'), /--email is required/);
  });

  it('refuses wrong credentials with the API error and exit code 1, storing nothing', async () => {
    const u = await cli.user();
    expectApiError(
      await u.run('login', '--email', u.account.email, '--password', 'not my password'),
      'SERVICE_UNAUTHENTICATED',
    );
    expect(() => statSync(join(u.configDir, 'credentials.json'))).toThrow();
  });

  it('uses $XDG_CONFIG_HOME/switchboard when XDG_CONFIG_HOME is set', async () => {
    const u = await cli.user();
    const xdg = join(u.home, 'xdg');
    const env = { SWITCHBOARD_URL: cli.server.url, XDG_CONFIG_HOME: xdg };
    ok(await runCli(['login', '--email', u.account.email, '--password', PASSWORD], { home: u.home, env }));
    expect(statSync(join(xdg, 'switchboard', 'credentials.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(ok(await runCli(['--json', 'whoami'], { home: u.home, env }))).user.id).toBe(u.account.id);
  });

  it('keeps one session per server', async () => {
    const other = await startTestServer();
    try {
      const u = await cli.signedIn();
      const onOther = await runCli(['whoami'], { home: u.home, env: { SWITCHBOARD_URL: other.url } });
      expect(onOther.code).toBe(1);
      expect(onOther.stderr).toBe(`error: not signed in to ${other.url}; run \`switchboard login\` first\n`);
      ok(await u.run('whoami'));
    } finally {
      await other.dispose();
    }
  });
});

describe.concurrent('switchboard whoami', () => {
  it('shows the signed-in user, the server and the project in use; --json is the API’s answer', async () => {
    const u = await cli.signedIn();
    const text = ok(await u.run('whoami'));
    expect(text).toContain(`${u.account.email}, user ${u.account.id}`);
    expect(text).toContain(`Server: ${cli.server.url}`);
    expect(text).toContain('Project in use: none');
    expect(await u.json('whoami')).toEqual({
      type: 'session',
      user: { id: u.account.id, email: u.account.email, name: null },
    });
  });

  it('is an error (exit 1) when not signed in', async () => {
    const u = await cli.user();
    const result = await u.run('whoami');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not signed in to .*; run `switchboard login` first/);
  });
});

/** A URL where nothing listens: a port the system handed out, closed again. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe.concurrent('a server that does not answer', () => {
  it('is named, with how to start one, rather than "not signed in" (exit 1), signed in there or not', async () => {
    const url = await closedPortUrl();
    const cannotReach =
      `error: cannot reach the server at ${url} (ECONNREFUSED): is it running? Start it with \`switchboard serve\`, ` +
      'or name another with --url or SWITCHBOARD_URL\n';
    const u = await cli.signedIn();
    const commands = [
      ['projects', 'list'],
      ['whoami'],
      ['keys', 'list', '--project', 'prj_x'],
      ['login', '--email', u.account.email, '--password', PASSWORD],
    ];
    const expectCannotReach = async () => {
      for (const args of commands) {
        const result = await runCli(['--url', url, ...args], { home: u.home });
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: cannotReach });
      }
    };
    await expectCannotReach();
    // Signed in to that URL (the session copied there, as if its server had stopped since): the same.
    const credentials = credentialsOf(u.configDir);
    credentials.servers[url] = credentials.servers[cli.server.url];
    writeFileSync(join(u.configDir, 'credentials.json'), JSON.stringify(credentials));
    await expectCannotReach();
  }, 60_000);
});

describe.concurrent('switchboard logout', () => {
  it('revokes the session on the server and forgets it', async () => {
    const u = await cli.signedIn();
    const { token } = credentialsOf(u.configDir).servers[cli.server.url].session;
    expect(ok(await u.run('logout'))).toBe(`Signed out of ${cli.server.url}.\n`);
    expectError(await cli.api.get('/v1/whoami', { token }), 401, 'SERVICE_UNAUTHENTICATED');
    expect(credentialsOf(u.configDir).servers[cli.server.url].session).toBeUndefined();
    expect(ok(await u.run('logout'))).toBe(`Not signed in to ${cli.server.url}.\n`);
    expect((await u.run('whoami')).code).toBe(1);
  });

  it('forgets a session that the server no longer accepts', async () => {
    const u = await cli.signedIn();
    const { token } = credentialsOf(u.configDir).servers[cli.server.url].session;
    await cli.api.post('/v1/auth/logout', { token });
    expectApiError(await u.run('whoami'), 'SERVICE_UNAUTHENTICATED');
    ok(await u.run('logout'));
    expect(credentialsOf(u.configDir).servers[cli.server.url].session).toBeUndefined();
  });
});
