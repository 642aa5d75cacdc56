import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chromiumUnavailable } from '../../support/chromium.js';
import { createProject, PASSWORD, registerUser } from '../../support/factories.js';
import { signIn, storedToken, tabTo, useDashboard, visible } from './harness.js';

const address = () => `user-${randomUUID().slice(0, 8)}@example.test`;

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))(
  'dashboard: session, projects, keys, connect',
  () => {
    const dash = useDashboard();

    it('registers (with the server’s message for a short password), keeps the session over a reload, signs out and in again', async () => {
      const dp = await dash.openPage('/');
      const { page } = dp;
      // Signed out, / sends the user to sign-in and remembers where they were going.
      await visible(page.getByRole('heading', { name: 'Sign in' }));
      expect(new URL(page.url()).pathname).toBe('/sign-in');
      await dp.checkPage('sign-in');

      await page.getByRole('link', { name: 'Create an account' }).click();
      await visible(page.getByRole('heading', { name: 'Create an account' }));
      const email = address();
      await page.getByRole('textbox', { name: 'Name' }).fill('Ada Lovelace');
      await page.getByRole('textbox', { name: 'Email' }).fill(email);
      await page.getByRole('textbox', { name: 'Password' }).fill('short');
      dp.expectFailure(400, /^\/v1\/auth\/register$/);
      await page.getByRole('button', { name: 'Create account' }).click();
      const refusal = page.getByRole('alert').filter({ hasText: 'Could not create the account' });
      await visible(refusal);
      expect(await refusal.innerText()).toContain('password: must be at least 8 characters');
      expect(await refusal.innerText()).toContain('SERVICE_VALIDATION_FAILED');
      // With the request id to quote, and once: no notification repeats it.
      expect(await refusal.innerText()).toMatch(/request req_[0-9A-Z]+/);
      expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
      await dp.checkPage('register-error');

      await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await visible(page.getByRole('heading', { name: 'Projects' }));
      await visible(page.getByText('You have no project yet'));
      await dp.checkPage('projects-empty');

      await page.reload();
      await visible(page.getByRole('heading', { name: 'Projects' }));
      await visible(page.getByRole('button', { name: 'Ada Lovelace' }));

      // Sign out revokes the token on the server: the stored one no longer works.
      const token = await storedToken(page);
      expect((await dash.api.get('/v1/whoami', { token })).status).toBe(200);
      await page.getByRole('button', { name: 'Ada Lovelace' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await visible(page.getByRole('heading', { name: 'Sign in' }));
      expect((await dash.api.get('/v1/whoami', { token })).status).toBe(401);
      expect(await storedToken(page)).toBeUndefined();

      dp.expectFailure(401, /^\/v1\/auth\/login$/);
      await signIn(dp, email, 'not the password');
      await visible(page.getByRole('alert').filter({ hasText: 'Could not sign in' }));
      await signIn(dp, email);
      await visible(page.getByRole('heading', { name: 'Projects' }));
      dp.expectClean();
      await dp.close();
    }, 90_000);

    it('returns a user whose session was revoked elsewhere to sign-in with a message, then to the page they wanted', async () => {
      const owner = await registerUser(dash.api);
      const project = (await dash.api.post('/v1/projects', { token: owner.token, body: { name: 'Revoked' } })).body;
      const dp = await dash.openPage(`/projects/${project.id}/keys?env=staging`);
      const { page } = dp;
      // Not signed in: sign-in, and afterwards the page asked for.
      await signIn(dp, owner.email);
      await visible(page.getByRole('heading', { name: 'API keys' }));
      expect(page.url()).toBe(`${dash.url}/projects/${project.id}/keys?env=staging`);
      await visible(page.getByText('No staging keys yet.'));

      const token = await storedToken(page);
      expect((await dash.api.post('/v1/auth/logout', { token })).status).toBe(204);
      // The next calls with the revoked token (the members list, then any refetch) are refused.
      dp.expectFailure(401, /^\/v1\/projects/);
      await page.getByRole('link', { name: 'Members' }).click();
      await visible(page.getByText('Your session has ended'));
      expect(new URL(page.url()).searchParams.get('redirect')).toBe(`/projects/${project.id}/members?env=staging`);
      await dp.checkPage('sign-in-session-ended');
      await signIn(dp, owner.email);
      await visible(page.getByRole('heading', { name: 'Members' }));
      expect(new URL(page.url()).pathname).toBe(`/projects/${project.id}/members`);
      dp.expectClean();
      await dp.close();
    }, 90_000);

    it('follows a sign-out in another tab of the same browser', async () => {
      const owner = await registerUser(dash.api);
      const first = await dash.openPage('/');
      await signIn(first, owner.email);
      await visible(first.page.getByRole('heading', { name: 'Projects' }));
      // A second tab of the same browser profile shares the session.
      const second = await first.context.newPage();
      await second.goto(`${dash.url}/`);
      await visible(second.getByRole('heading', { name: 'Projects' }));
      await second.getByRole('button', { name: owner.email }).click();
      await second.getByRole('menuitem', { name: 'Sign out' }).click();
      await visible(second.getByRole('heading', { name: 'Sign in' }));
      // The first tab leaves its signed-in page at once, and says why.
      await visible(first.page.getByText('You signed out in another window.'));
      expect(new URL(first.page.url()).pathname).toBe('/sign-in');
      first.expectClean();
      await first.close();
    }, 60_000);

    it('shows each failure once: inline in a form, a toast for an action; an unknown project is a page with the way back', async () => {
      const owner = await registerUser(dash.api);
      const project = await createProject(dash.api, owner, 'Once');
      const dp = await dash.openPage(`/projects/${project.id}/members`);
      const { page } = dp;
      const toasts = page.locator('.mantine-Notification-root');

      // A form: the sign-in form says why, where the user typed, and nothing else does.
      dp.expectFailure(401, /^\/v1\/auth\/login$/);
      await signIn(dp, owner.email, 'not the password');
      await visible(page.getByRole('alert').filter({ hasText: 'Could not sign in' }));
      expect(await toasts.count()).toBe(0);
      await dp.checkPage('sign-in-refused');

      // An action without a form (a role in a row of the table): a toast, and no alert on the page as well.
      await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      dp.expectFailure(400, /^\/v1\/projects\/[^/]+\/members\/[^/]+$/);
      await page.getByRole('combobox', { name: new RegExp(`^Role of .*${owner.email}`) }).click();
      await page.getByRole('option', { name: /^VIEWER/ }).click();
      await visible(toasts.filter({ hasText: 'SERVICE_VALIDATION_FAILED' }));
      expect(await toasts.count()).toBe(1);
      expect(await page.locator('main .mantine-Alert-root').count()).toBe(0);
      await dp.checkPage('members-last-owner-refused');

      // A project that does not exist: no sidebar of its pages, a way back to the list.
      dp.expectFailure(404, /^\/v1\/projects\/prj_/);
      await page.goto(`${dash.url}/projects/prj_00000000000000000000000000/rooms`);
      await visible(page.getByRole('heading', { name: 'Project not found' }));
      expect(await page.getByRole('navigation', { name: 'Project pages' }).count()).toBe(0);
      expect(await toasts.count()).toBe(0);
      await dp.checkPage('project-not-found');
      await page.getByRole('link', { name: 'Go to your projects' }).click();
      await visible(page.getByRole('link', { name: 'Once' }));
      dp.expectClean();
      await dp.close();
    }, 60_000);

    it('creates, switches, renames and deletes projects (deleting takes typing the name)', async () => {
      const owner = await registerUser(dash.api);
      const dp = await dash.openPage('/');
      const { page } = dp;
      await signIn(dp, owner.email);
      for (const name of ['Alpha', 'Beta']) {
        await page.getByRole('link', { name: 'Switchboard' }).click();
        await page.getByRole('textbox', { name: 'New project name' }).fill(name);
        await page.getByRole('button', { name: 'Create project' }).click();
        await visible(page.getByRole('heading', { name: 'Connect' }));
      }
      await page.getByRole('link', { name: 'Switchboard' }).click();
      await visible(page.getByRole('link', { name: 'Alpha' }));
      await visible(page.getByRole('link', { name: 'Beta' }));
      await dp.checkPage('projects');

      // The switcher in the header jumps to the other project.
      await page.getByRole('link', { name: 'Beta' }).click();
      await page.getByRole('combobox', { name: 'Project' }).click();
      await page.getByRole('option', { name: 'Alpha' }).click();
      await visible(page.getByText('Alpha', { exact: true }).first());
      const alphaId = new URL(page.url()).pathname.split('/')[2];

      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Alpha renamed');
      await page.getByRole('button', { name: 'Rename' }).click();
      await visible(page.getByText('Renamed to Alpha renamed'));
      expect((await dash.api.get(`/v1/projects/${alphaId}`, { token: owner.token })).body.name).toBe('Alpha renamed');
      await dp.checkPage('settings');

      await page.getByRole('button', { name: 'Delete project…' }).click();
      const dialog = page.getByRole('dialog');
      const confirm = dialog.getByRole('button', { name: 'Delete forever' });
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByRole('textbox', { name: 'Project name' }).fill('Alpha');
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByRole('textbox', { name: 'Project name' }).fill('Alpha renamed');
      await dp.checkPage('settings-delete');
      await confirm.click();
      await visible(page.getByRole('heading', { name: 'Projects' }));
      await visible(page.getByText('Deleted Alpha renamed'));
      expect(await page.getByRole('link', { name: 'Alpha renamed' }).count()).toBe(0);
      expect((await dash.api.get(`/v1/projects/${alphaId}`, { token: owner.token })).status).toBe(404);

      // An address that is no page says so, with a way back; the server answers it 404 (with the dashboard).
      dp.expectFailure(404, /^\/no\/such\/page$/);
      const answer = await page.goto(`${dash.url}/no/such/page`);
      expect(answer?.status()).toBe(404);
      await visible(page.getByRole('heading', { name: 'Page not found' }));
      await dp.checkPage('not-found');
      await page.getByRole('link', { name: 'Go to your projects' }).click();
      await visible(page.getByRole('link', { name: 'Beta' }));
      dp.expectClean();
      await dp.close();
    }, 90_000);

    it('manages keys per environment (production marked, the key shown once with copy, revoke confirmed)', async () => {
      const owner = await registerUser(dash.api);
      const project = (await dash.api.post('/v1/projects', { token: owner.token, body: { name: 'Keys' } })).body;
      const dp = await dash.openPage(`/projects/${project.id}/keys`);
      const { page } = dp;
      await signIn(dp, owner.email);
      await visible(page.getByRole('heading', { name: 'API keys' }));
      expect(await page.getByRole('status', { name: 'Production environment' }).count()).toBe(0);
      await visible(page.getByText('No development keys yet.'));

      await page.locator('label', { hasText: 'Production' }).click();
      await visible(page.getByRole('status', { name: 'Production environment' }));
      expect(new URL(page.url()).searchParams.get('env')).toBe('production');
      await page.getByRole('textbox', { name: 'Key name' }).fill('backend');
      await page.getByRole('button', { name: 'Create key' }).click();
      const dialog = page.getByRole('dialog');
      await visible(dialog.getByText('Copy it now: it is not shown again'));
      await visible(dialog.getByText('A production key stays server-side'));
      const key = (await dialog.getByLabel('The new API key').innerText()).trim();
      expect(key).toMatch(/_prod_/);
      expect(await page.title()).toBe('API keys · Keys · Production · Switchboard');
      await dp.checkPage('keys-created-production');
      await dialog.getByRole('button', { name: 'Copy key' }).click();
      await visible(dialog.getByRole('button', { name: 'Copied', exact: true }));
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
      await dialog.getByRole('button', { name: 'I have copied it' }).click();

      // The key works, and its last use shows after a reload; its secret is nowhere on the page any more.
      const whoami = await dash.api.get('/v1/whoami', { headers: { authorization: `Bearer ${key}` } });
      expect(whoami.body).toMatchObject({ environment: 'production', projectId: project.id });
      await page.reload();
      const row = page.getByRole('row').filter({ hasText: 'backend' });
      await visible(row);
      expect(await row.locator('time').count()).toBe(2);
      expect(await page.content()).not.toContain(key);
      await dp.checkPage('keys-production');

      // Another environment has its own keys.
      await page.locator('label', { hasText: 'Staging' }).click();
      await visible(page.getByText('No staging keys yet.'));
      await page.locator('label', { hasText: 'Production' }).click();

      await row.getByRole('button', { name: 'Revoke backend' }).click();
      await dp.checkPage('keys-revoke-confirm');
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
      await visible(page.getByText('No production keys yet.'));
      expect((await dash.api.get('/v1/whoami', { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
      dp.expectClean();
      await dp.close();
    }, 90_000);

    it('connects: server URL, a one-click development key, and snippets carrying the real values', async () => {
      const owner = await registerUser(dash.api);
      const project = (await dash.api.post('/v1/projects', { token: owner.token, body: { name: 'Connect' } })).body;
      const dp = await dash.openPage(`/projects/${project.id}`);
      const { page } = dp;
      await signIn(dp, owner.email);
      await visible(page.getByRole('heading', { name: 'Connect' }));
      expect(new URL(page.url()).pathname).toBe(`/projects/${project.id}/connect`);
      await visible(page.getByText(dash.url, { exact: true }));
      await dp.checkPage('connect');

      await page.getByRole('button', { name: 'Create a development key' }).click();
      const key = (await page.getByLabel('The new API key').innerText()).trim();
      expect(key).toMatch(/_dev_/);
      const env = (await page.getByLabel('.env snippet').innerText()).trim();
      expect(env).toBe(`SWITCHBOARD_URL=${dash.url}\nSWITCHBOARD_API_KEY=${key}`);
      await page.getByRole('tab', { name: 'curl' }).click();
      const curl = await page.getByLabel('curl snippet').innerText();
      expect(curl).toContain(`${dash.url}/v1/rooms`);
      expect(curl).toContain(`Bearer ${key}`);
      await page.getByRole('tab', { name: 'SDK: server' }).click();
      await visible(page.getByLabel('SDK: server snippet').getByText('new ServerClient', { exact: false }));
      await page.getByRole('tab', { name: 'SDK: browser chat' }).click();
      await visible(page.getByLabel('SDK: browser chat snippet').getByText(`baseUrl: '${dash.url}'`, { exact: false }));
      await dp.checkPage('connect-with-key');
      // What the curl snippet does, with the key it shows.
      const room = await dash.api.post('/v1/rooms', {
        headers: { authorization: `Bearer ${key}` },
        body: { name: 'lobby' },
      });
      expect(room.status).toBe(201);
      dp.expectClean();
      await dp.close();
    }, 90_000);

    it('works from the keyboard alone: sign in, create a project, create and revoke a key', async () => {
      const owner = await registerUser(dash.api);
      const dp = await dash.openPage('/');
      const { page } = dp;
      await visible(page.getByRole('heading', { name: 'Sign in' }));
      await tabTo(page, page.getByRole('textbox', { name: 'Email' }));
      await page.keyboard.type(owner.email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await visible(page.getByRole('heading', { name: 'Projects' }));

      await tabTo(page, page.getByRole('textbox', { name: 'New project name' }));
      await page.keyboard.type('Keyboard');
      await page.keyboard.press('Enter');
      await visible(page.getByRole('heading', { name: 'Connect' }));

      await tabTo(page, page.getByRole('link', { name: 'API keys' }));
      await page.keyboard.press('Enter');
      await visible(page.getByRole('heading', { name: 'API keys' }));
      // The first stop of a page skips the header and the navigation.
      await page.reload();
      await visible(page.getByRole('heading', { name: 'API keys' }));
      await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
      await page.keyboard.press('Enter');
      expect(await page.evaluate('document.activeElement.id')).toBe('main-content');
      await tabTo(page, page.getByRole('textbox', { name: 'Key name' }));
      await page.keyboard.type('typed');
      await page.keyboard.press('Enter');
      await visible(page.getByRole('dialog').getByText('Copy it now'));
      await page.keyboard.press('Escape');
      await visible(page.getByRole('row').filter({ hasText: 'typed' }));
      await tabTo(page, page.getByRole('button', { name: 'Revoke typed' }));
      await page.keyboard.press('Enter');
      await visible(page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }));
      await tabTo(page, page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }), 5);
      await page.keyboard.press('Enter');
      await visible(page.getByText('No development keys yet.'));

      // The environment switcher, too: arrow keys move between its options.
      await tabTo(page, page.getByRole('radio', { name: 'Development' }));
      await page.keyboard.press('ArrowRight');
      await visible(page.getByText('No staging keys yet.'));
      dp.expectClean();
      await dp.close();
    }, 90_000);
  },
);
