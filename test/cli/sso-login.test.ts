import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';
import { client } from '../support/http.js';
import { signInWithoutBrowser, startTestProvider, TEST_CLIENT, type TestProvider } from '../support/oidc-provider.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { SSO_ACCOUNTS } from '../support/sso-accounts.js';

/**
 * `switchboard login --sso` against a real OpenID Provider: the browser's part (the provider's sign-in form, then
 * the redirects back to the CLI's loopback listener) is driven with fetch.
 */
describe('switchboard login --sso', () => {
  let provider: TestProvider;
  let server: TestServer;
  const homes: string[] = [];
  beforeAll(async () => {
    provider = await startTestProvider(SSO_ACCOUNTS);
    server = await startTestServer({
      security: {
        singleSignOn: {
          issuer: provider.issuer,
          clientId: TEST_CLIENT.id,
          clientSecret: TEST_CLIENT.secret,
          name: 'Test ID',
          allowedDomains: ['example.com'],
        },
      },
    });
    provider.register(`${server.url}/auth/sso/callback`);
  });
  afterAll(async () => {
    await server?.dispose();
    await provider?.close();
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  /** Starts the command, then plays the browser: opens the address it printed and signs in as `login`. */
  async function loginAs(login: string) {
    const home = mkdtempSync(join(tmpdir(), 'sb-sso-cli-'));
    homes.push(home);
    const cli = startCli(['login', '--sso'], { home, env: { SWITCHBOARD_URL: server.url } }, /Waiting for the browser/);
    const printed = await cli.ready;
    expect(printed).toContain('Open this address in your browser to sign in with Test ID:');
    const start = /(http:\/\/\S+\/auth\/sso\/start\?\S+)/.exec(printed)?.[1] as string;
    const { finalLocation } = await signInWithoutBrowser(start, login);
    // The browser arrives at the CLI's loopback listener, which shows how it went.
    expect(finalLocation.hostname).toBe('127.0.0.1');
    const landing = await fetch(finalLocation);
    return { home, cli, landing: { status: landing.status, text: await landing.text() }, code: await cli.exited };
  }

  it('signs in through the browser and keeps the session as `login` does', async () => {
    const { home, cli, landing, code } = await loginAs('ada');
    expect(landing.text).toContain('You can close this tab and return to the terminal.');
    expect(code, cli.output.stderr).toBe(0);
    expect(cli.output.stdout).toBe(`Signed in to ${server.url} as ada@example.com.\n`);
    const credentials = JSON.parse(readFileSync(join(home, '.config', 'switchboard', 'credentials.json'), 'utf8'));
    const { token } = credentials.servers[server.url].session;
    expect((await client(server.url).get('/v1/whoami', { token })).body.user.email).toBe('ada@example.com');
  });

  it('says why the provider’s account was refused, in the browser and on the terminal', async () => {
    const { cli, landing, code } = await loginAs('outsider');
    expect(landing.status).toBe(400);
    expect(landing.text).toContain('This address may not sign in here');
    expect(code).not.toBe(0);
    expect(cli.output.stderr).toContain('This address may not sign in here');
    expect(cli.output.stderr).toContain('not of elsewhere.org');
  });
});
