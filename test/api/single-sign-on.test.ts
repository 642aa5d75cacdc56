import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, PASSWORD } from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { signInWithoutBrowser, startTestProvider, TEST_CLIENT, type TestProvider } from '../support/oidc-provider.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { pkcePair, SSO_ACCOUNTS } from '../support/sso-accounts.js';

/**
 * Single sign-on against a real OpenID Provider on loopback, driven as a browser would with fetch: one server that
 * also takes passwords and allows example.com addresses only, one that takes single sign-on only.
 */
describe('single sign-on (OpenID Connect)', () => {
  let provider: TestProvider;
  let server: TestServer;
  let ssoOnly: TestServer;
  let api: Client;
  beforeAll(async () => {
    provider = await startTestProvider(SSO_ACCOUNTS);
    const singleSignOn = {
      issuer: provider.issuer,
      clientId: TEST_CLIENT.id,
      clientSecret: TEST_CLIENT.secret,
      name: 'Test ID',
      allowedDomains: ['Example.com'],
    };
    [server, ssoOnly] = await Promise.all([
      startTestServer({ security: { singleSignOn } }),
      startTestServer({ security: { singleSignOn: { ...singleSignOn, allowedDomains: [] }, passwordSignIn: false } }),
    ]);
    provider.register(`${server.url}/auth/sso/callback`, `${ssoOnly.url}/auth/sso/callback`);
    api = client(server.url);
  });
  afterAll(async () => {
    await Promise.all([server?.dispose(), ssoOnly?.dispose()]);
    await provider?.close();
  });

  /** Signs in through the provider to the dashboard and redeems the grant it returns with. */
  async function dashboardSignIn(login: string, on = server) {
    const { finalLocation } = await signInWithoutBrowser(`${on.url}/auth/sso/start?redirect=/projects`, login);
    expect(finalLocation.pathname).toBe('/sign-in/sso');
    expect(finalLocation.searchParams.get('redirect')).toBe('/projects');
    const grant = finalLocation.searchParams.get('grant');
    expect(grant, finalLocation.href).toBeTruthy();
    return { grant: grant as string, redeemed: await client(on.url).post('/v1/auth/sso/redeem', { body: { grant } }) };
  }

  it('tells clients how accounts sign in', async () => {
    expect((await api.get('/v1/auth/methods')).body).toEqual({
      password: true,
      singleSignOn: { name: 'Test ID', startPath: '/auth/sso/start' },
    });
    expect((await client(ssoOnly.url).get('/v1/auth/methods')).body).toMatchObject({ password: false });
  });

  it('makes the account of a verified address on its first sign-in, and signs into it afterwards', async () => {
    const first = await dashboardSignIn('ada');
    expect(first.redeemed.status).toBe(200);
    expect(first.redeemed.body.user).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace' });
    const whoami = await api.get('/v1/whoami', { token: first.redeemed.body.token });
    expect(whoami.body.user.email).toBe('ada@example.com');
    // A grant is good once.
    expectError(
      await api.post('/v1/auth/sso/redeem', { body: { grant: first.grant } }),
      401,
      'SERVICE_UNAUTHENTICATED',
    );

    const again = await dashboardSignIn('ada');
    expect(again.redeemed.body.user.id).toBe(first.redeemed.body.user.id);
    expect(again.redeemed.body.token).not.toBe(first.redeemed.body.token);
  });

  it('signs a password account of the same address into that account', async () => {
    const registered = await api.post('/v1/auth/register', {
      body: { email: 'grace@example.com', password: PASSWORD },
    });
    expect(registered.status).toBe(201);
    const { redeemed } = await dashboardSignIn('grace');
    expect(redeemed.body.user.id).toBe(registered.body.user.id);
    // Its password still works.
    expect(
      (await api.post('/v1/auth/login', { body: { email: 'grace@example.com', password: PASSWORD } })).status,
    ).toBe(200);
  });

  it('refuses an unverified address and one outside the allowed domains, saying why', async () => {
    const unverified = await signInWithoutBrowser(`${server.url}/auth/sso/start`, 'unverified');
    expect(Object.fromEntries(unverified.finalLocation.searchParams)).toEqual({
      error: 'email-unverified',
      redirect: '/',
    });
    const outsider = await signInWithoutBrowser(`${server.url}/auth/sso/start`, 'outsider');
    expect(outsider.finalLocation.searchParams.get('error')).toBe('domain-not-allowed');
    expect(outsider.finalLocation.searchParams.get('detail')).toBe('elsewhere.org');
    expect(
      (
        await client(server.url).post('/v1/auth/login', {
          body: { email: 'mallory@elsewhere.org', password: PASSWORD },
        })
      ).status,
    ).toBe(401);
  });

  it('refuses an answer with another state or nonce, or without the flow cookie', async () => {
    const start = `${server.url}/auth/sso/start`;
    const state = await signInWithoutBrowser(start, 'ada', {
      tamper: (url) => url.searchParams.set('state', 'forged'),
    });
    expect(state.finalLocation.searchParams.get('error')).toBe('state-mismatch');
    const nonce = await signInWithoutBrowser(start, 'ada', {
      tamper: (url) => url.searchParams.set('nonce', 'forged'),
    });
    expect(nonce.finalLocation.searchParams.get('error')).toBe('state-mismatch');
    const lost = await signInWithoutBrowser(start, 'ada', { dropServerCookies: true });
    expect(lost.finalLocation.searchParams.get('error')).toBe('expired');
  });

  it('returns a CLI sign-in to its loopback address with a grant only its verifier redeems', async () => {
    const { verifier, challenge } = pkcePair();
    const cli = 'http://127.0.0.1:53682/callback';
    const { finalLocation } = await signInWithoutBrowser(
      `${server.url}/auth/sso/start?${new URLSearchParams({ cli, challenge })}`,
      'ada',
    );
    expect(finalLocation.origin + finalLocation.pathname).toBe(cli);
    const grant = finalLocation.searchParams.get('grant');
    expectError(await api.post('/v1/auth/sso/redeem', { body: { grant } }), 401, 'SERVICE_UNAUTHENTICATED');
    expectError(
      await api.post('/v1/auth/sso/redeem', { body: { grant, verifier: pkcePair().verifier } }),
      401,
      'SERVICE_UNAUTHENTICATED',
    );
    const redeemed = await api.post('/v1/auth/sso/redeem', { body: { grant, verifier } });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.user.email).toBe('ada@example.com');
  });

  it('sends a sign-in back only to a dashboard path or a loopback address', async () => {
    const { challenge } = pkcePair();
    for (const cli of ['http://evil.example:53682/callback', 'https://127.0.0.1:1/x', 'http://localhost.evil:1/']) {
      const res = await fetch(`${server.url}/auth/sso/start?${new URLSearchParams({ cli, challenge })}`, {
        redirect: 'manual',
      });
      expect(res.status, cli).toBe(400);
    }
    const offSite = await signInWithoutBrowser(`${server.url}/auth/sso/start?redirect=//evil.example/`, 'ada');
    expect(offSite.finalLocation.searchParams.get('redirect')).toBe('/');
  });

  it('with password sign-in off, refuses the password routes and still signs in with the provider', async () => {
    const other = client(ssoOnly.url);
    expectError(
      await other.post('/v1/auth/register', { body: { email: 'new@example.org', password: PASSWORD } }),
      403,
      'SERVICE_PASSWORD_SIGN_IN_DISABLED',
    );
    expectError(
      await other.post('/v1/auth/login', { body: { email: 'new@example.org', password: PASSWORD } }),
      403,
      'SERVICE_PASSWORD_SIGN_IN_DISABLED',
    );
    // No allowed domains on this one: any verified address.
    const { redeemed } = await dashboardSignIn('outsider', ssoOnly);
    expect(redeemed.body.user.email).toBe('mallory@elsewhere.org');
  });
});
