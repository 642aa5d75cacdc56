import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecurityOptions } from '../../../server/security/settings.js';
import { chromiumUnavailable } from '../../support/chromium.js';
import { expectError, PASSWORD, registerUser } from '../../support/factories.js';
import { client } from '../../support/http.js';
import { startTestProvider, TEST_CLIENT, type TestProvider } from '../../support/oidc-provider.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { SSO_ACCOUNTS } from '../../support/sso-accounts.js';
import { type DashboardPage, storedToken, useDashboard, visible } from './harness.js';

/** The provider's development form asks for a stylesheet of Google Fonts: blocked, and not the dashboard's doing. */
const PROVIDER_FONTS = /^https:\/\/fonts\.googleapis\.com\//;

describe.skipIf(chromiumUnavailable('the single sign-on browser tests'))('dashboard: single sign-on', () => {
  let provider: TestProvider;
  /** A second server, on the same provider, that takes no passwords. */
  let ssoOnly: TestServer;
  const security: SecurityOptions = {};
  beforeAll(async () => {
    provider = await startTestProvider(SSO_ACCOUNTS);
    security.singleSignOn = {
      issuer: provider.issuer,
      clientId: TEST_CLIENT.id,
      clientSecret: TEST_CLIENT.secret,
      name: 'Test ID',
      allowedDomains: ['example.com'],
    };
  });
  const dash = useDashboard({ server: { security } });
  beforeAll(async () => {
    const { singleSignOn } = security;
    if (!singleSignOn) throw new Error('the provider starts first');
    ssoOnly = await startTestServer({
      security: { singleSignOn: { ...singleSignOn, allowedDomains: [] }, passwordSignIn: false },
    });
    provider.register(`${dash.url}/auth/sso/callback`, `${ssoOnly.url}/auth/sso/callback`);
  });
  afterAll(async () => {
    await ssoOnly?.dispose();
    await provider?.close();
  });

  /** From the sign-in page, through the provider's form as `login`. */
  async function signInWithProvider(dp: DashboardPage, login: string) {
    const { page } = dp;
    dp.expectFailure(0, /^\/css$/);
    await page.getByRole('link', { name: 'Sign in with Test ID' }).click();
    await page.locator('input[name="login"]').fill(login);
    // The development form wants a password, and takes any.
    await page.locator('input[name="password"]').fill('any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }

  /** No problem on the dashboard's side; what the provider's page asked off the machine was its font only. */
  function expectCleanBesidesProvider(dp: DashboardPage) {
    const offMachine = dp.context.blocked.splice(0);
    expect(offMachine.filter((url) => !PROVIDER_FONTS.test(url))).toEqual([]);
    dp.expectClean();
  }

  it('signs in with the provider and lands on the page asked for, then signs into the same account again', async () => {
    const owner = await registerUser(dash.api);
    const project = (await dash.api.post('/v1/projects', { token: owner.token, body: { name: 'Elsewhere' } })).body;
    // A link to a page of a project whose member she is not: after signing in, that page (which says so).
    const dp = await dash.openPage(`/projects/${project.id}/keys`);
    const { page } = dp;
    await visible(page.getByRole('heading', { name: 'Sign in' }));
    await visible(page.getByRole('link', { name: 'Sign in with Test ID' }));
    // Passwords still work on this server: the form is there too.
    await visible(page.getByRole('textbox', { name: 'Password' }));
    await dp.checkPage('sign-in-with-provider');

    await signInWithProvider(dp, 'ada');
    await page.waitForURL(`${dash.url}/projects/${project.id}/keys`);
    // She is no member of that project: the page asks for it, is answered 404 and says so. Its code comes in chunks:
    // leaving before they arrive would abort them (page problems), so the page is let finish first.
    dp.expectFailure(404, new RegExp(`^/v1/projects/${project.id}$`));
    dp.expectConsoleError(/status of 404/);
    await page.waitForLoadState('networkidle');
    await page.goto(`${dash.url}/`);
    await visible(page.getByRole('heading', { name: 'Projects' }));
    await visible(page.getByRole('button', { name: 'Ada Lovelace' }));
    const token = await storedToken(page);
    const me = (await dash.api.get('/v1/whoami', { token })).body.user;
    expect(me.email).toBe('ada@example.com');

    await page.getByRole('button', { name: 'Ada Lovelace' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await visible(page.getByRole('link', { name: 'Sign in with Test ID' }));
    // The provider remembers the browser: straight back, into the same account.
    await page.getByRole('link', { name: 'Sign in with Test ID' }).click();
    await visible(page.getByRole('heading', { name: 'Projects' }));
    const again = (await dash.api.get('/v1/whoami', { token: await storedToken(page) })).body.user;
    expect(again.id).toBe(me.id);
    expectCleanBesidesProvider(dp);
    await dp.close();
  }, 90_000);

  it.each([
    ['unverified', 'Your email address is not verified', 'sso-refused-unverified'],
    ['outsider', 'This address may not sign in here', 'sso-refused-domain'],
  ])(
    'refuses the account %s with a page that says why',
    async (login, title, screenshot) => {
      const dp = await dash.openPage('/');
      await signInWithProvider(dp, login);
      await visible(dp.page.getByRole('heading', { name: title }));
      expect(new URL(dp.page.url()).pathname).toBe('/sign-in/sso');
      await visible(dp.page.getByRole('link', { name: 'Try again with Test ID' }));
      await visible(dp.page.getByRole('link', { name: 'Back to sign-in' }));
      if (login === 'outsider') await visible(dp.page.getByText('and not of elsewhere.org'));
      expect(await storedToken(dp.page)).toBeUndefined();
      await dp.checkPage(screenshot);
      expectCleanBesidesProvider(dp);
      await dp.close();
    },
    60_000,
  );

  it.each(['state', 'nonce'])(
    'refuses an answer with another %s',
    async (parameter) => {
      const dp = await dash.openPage('/');
      // The server's redirect to the provider is changed on its way to the browser: the provider then answers for
      // another sign-in than the one the flow cookie holds. (Routing sees no redirected request, hence the start.)
      await dp.page.route(
        (url) => url.pathname === '/auth/sso/start',
        async (route) => {
          const response = await route.fetch({ maxRedirects: 0 });
          const location = new URL(response.headers().location ?? '');
          location.searchParams.set(parameter, 'forged-by-the-test');
          await route.fulfill({ response, headers: { ...response.headers(), location: location.href } });
        },
      );
      await signInWithProvider(dp, 'ada');
      await visible(dp.page.getByRole('heading', { name: 'This sign-in could not be verified' }));
      await visible(dp.page.getByText('its state or nonce did not match'));
      expect(await storedToken(dp.page)).toBeUndefined();
      if (parameter === 'state') await dp.checkPage('sso-refused-state');
      expectCleanBesidesProvider(dp);
      await dp.close();
    },
    60_000,
  );

  it('with password sign-in off, shows the provider alone and the password route refuses', async () => {
    const dp = await dash.openPage('');
    const { page } = dp;
    await page.goto(`${ssoOnly.url}/`);
    await visible(page.getByRole('link', { name: 'Sign in with Test ID' }));
    await visible(page.getByText('This server signs in with Test ID only'));
    expect(await page.getByRole('textbox', { name: 'Password' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Create an account' }).count()).toBe(0);
    await dp.checkPage('sign-in-provider-only');
    expectError(
      await client(ssoOnly.url).post('/v1/auth/login', { body: { email: 'ada@example.com', password: PASSWORD } }),
      403,
      'SERVICE_PASSWORD_SIGN_IN_DISABLED',
    );
    await signInWithProvider(dp, 'grace');
    await visible(page.getByRole('heading', { name: 'Projects' }));
    await visible(page.getByRole('button', { name: 'Grace Hopper' }));
    expectCleanBesidesProvider(dp);
    await dp.close();
  }, 60_000);
});
