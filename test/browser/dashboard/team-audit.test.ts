import { describe, expect, it } from 'vitest';
import { chromiumUnavailable } from '../../support/chromium.js';
import { addMember, createKey, createProject, PASSWORD, registerUser, type TestUser } from '../../support/factories.js';
import { type DashboardPage, signIn, useDashboard, visible } from './harness.js';

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))('dashboard: members, roles, audit log', () => {
  const dash = useDashboard();

  async function signedIn(user: TestUser, path: string): Promise<DashboardPage> {
    const dp = await dash.openPage(path);
    await signIn(dp, user.email);
    return dp;
  }

  const navLinks = async ({ page }: DashboardPage) =>
    page.getByRole('navigation', { name: 'Project pages' }).getByRole('link').allInnerTexts();

  it('adds, re-roles and removes members; the server’s refusals (no account, last owner) are shown as it words them', async () => {
    const owner = await registerUser(dash.api);
    const colleague = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Team');
    const dp = await signedIn(owner, `/projects/${project.id}/members`);
    const { page } = dp;
    await visible(page.getByRole('heading', { name: 'Members' }));
    const ownerRow = page.getByRole('row').filter({ hasText: owner.email });
    await visible(ownerRow.getByText('members:manage'));

    // An address without an account: the 404 as the server says it, with its ids, inline (and only there).
    dp.expectFailure(404, /\/members$/);
    await page.getByRole('textbox', { name: 'Email of their account' }).fill('nobody@example.test');
    await page.getByRole('button', { name: 'Add member' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'The member was not added' });
    await visible(refusal);
    expect(await refusal.innerText()).toContain('No account uses nobody@example.test.');
    expect(await refusal.innerText()).toMatch(/SERVICE_USER_NOT_FOUND · request req_[0-9A-Z]+/);
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    await dp.checkPage('members-no-account');

    // The server suggests an invitation: one click makes one, whose link registers the invitee into the project.
    await page.getByRole('button', { name: 'Invite nobody@example.test as DEVELOPER instead' }).click();
    const link = (await page.getByLabel('Invitation link').innerText()).trim();
    expect(link.startsWith(`${dash.url}/register?invitation=`)).toBe(true);
    await dp.checkPage('members-invitation');
    const invitee = await dash.openPage(new URL(link).pathname + new URL(link).search);
    await visible(invitee.page.getByText('You have been invited to a project'));
    expect(await invitee.page.getByRole('textbox', { name: 'Email' }).inputValue()).toBe('nobody@example.test');
    await invitee.page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await invitee.page.getByRole('button', { name: 'Create account' }).click();
    await visible(invitee.page.getByRole('link', { name: 'Team' }));
    await visible(invitee.page.getByRole('row').filter({ hasText: 'Team' }).getByText('DEVELOPER'));
    invitee.expectClean();
    await invitee.close();
    await page.reload();
    await visible(page.getByRole('row').filter({ hasText: 'nobody@example.test' }));

    await page.getByRole('textbox', { name: 'Email of their account' }).fill(colleague.email);
    await page.getByRole('combobox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: 'VIEWER' }).click();
    await page.getByRole('button', { name: 'Add member' }).click();
    const row = page.getByRole('row').filter({ hasText: colleague.email });
    await visible(row);
    await visible(page.getByText(`Added ${colleague.email} as VIEWER`));
    await visible(row.getByText('audit:read'));
    expect(await row.getByText('keys:manage').count()).toBe(0);

    await row.getByRole('combobox', { name: `Role of ${colleague.email}` }).click();
    await page.getByRole('option', { name: 'DEVELOPER' }).click();
    await visible(page.getByText(`${colleague.email} is now DEVELOPER`));
    await visible(row.getByText('keys:manage'));
    await dp.checkPage('members');

    // The last owner cannot step down.
    dp.expectFailure(400, /\/members\/usr_/);
    await ownerRow.getByRole('combobox', { name: /^Role of / }).click();
    await page.getByRole('option', { name: 'ADMIN' }).click();
    await visible(page.locator('.mantine-Notification-root').filter({ hasText: 'last OWNER' }));
    expect((await dash.api.get(`/v1/projects/${project.id}/members`, { token: owner.token })).body.data[0].role).toBe(
      'OWNER',
    );

    await row.getByRole('button', { name: `Remove ${colleague.email}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
    await page.getByRole('row').filter({ hasText: colleague.email }).waitFor({ state: 'detached' });
    const left = (await dash.api.get(`/v1/projects/${project.id}/members`, { token: owner.token })).body.data;
    expect(left.map((m: { email: string }) => m.email)).toEqual([owner.email, 'nobody@example.test']);
    dp.expectClean();
    await dp.close();
  }, 90_000);

  it('shows each role only what it may do (capabilities from the server, no role table in the page)', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Roles');
    await createKey(dash.api, project.id, owner, 'development', 'existing');
    const users: Record<string, TestUser> = {};
    for (const role of ['ADMIN', 'DEVELOPER', 'VIEWER', 'BILLING']) {
      users[role] = await registerUser(dash.api);
      await addMember(dash.api, project.id, owner, users[role], role);
    }

    // VIEWER: reads everything, no write control anywhere.
    let dp = await signedIn(users.VIEWER, `/projects/${project.id}/keys`);
    let { page } = dp;
    await visible(page.getByRole('row').filter({ hasText: 'existing' }));
    expect(await navLinks(dp)).toEqual([
      'Connect',
      'API keys',
      'Rooms',
      'Live streams',
      'Chat',
      'Webhooks',
      'Observability',
      'Live tail',
      'Recordings',
      'Usage',
      'Members',
      'Audit log',
      'Settings',
    ]);
    await visible(page.getByText('Your role (VIEWER) cannot create or revoke keys'));
    expect(await page.getByRole('button', { name: /Create key|Revoke/ }).count()).toBe(0);
    await dp.checkPage('role-viewer-keys');
    await page.getByRole('link', { name: 'Members' }).click();
    await visible(page.getByText('Your role (VIEWER) cannot add, change or remove members'));
    await visible(page.getByRole('row').filter({ hasText: owner.email }));
    expect(await page.getByRole('button', { name: /Add member|Remove/ }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: /^Role of / }).count()).toBe(0);
    await page.getByRole('link', { name: 'Settings' }).click();
    await visible(page.getByText('Your role (VIEWER) cannot rename the project'));
    expect(await page.getByRole('button', { name: /Rename|Delete/ }).count()).toBe(0);
    await page.getByRole('link', { name: 'Connect' }).click();
    await visible(page.getByText('Your role (VIEWER) cannot create API keys'));
    dp.expectClean();
    await dp.close();

    // DEVELOPER: keys yes, members and audit no.
    dp = await signedIn(users.DEVELOPER, `/projects/${project.id}/keys`);
    page = dp.page;
    await visible(page.getByRole('button', { name: 'Revoke existing' }));
    await visible(page.getByRole('button', { name: 'Create key' }));
    expect(await navLinks(dp)).toEqual([
      'Connect',
      'API keys',
      'Rooms',
      'Live streams',
      'Chat',
      'Webhooks',
      'Observability',
      'Live tail',
      'Recordings',
      'Usage',
      'Settings',
    ]);
    await page.goto(`${dash.url}/projects/${project.id}/members`);
    await visible(page.getByText('Your role (DEVELOPER) cannot see the members'));
    await dp.checkPage('role-developer-members');
    dp.expectClean();
    await dp.close();

    // BILLING: neither keys nor members, not even by their address.
    dp = await signedIn(users.BILLING, `/projects/${project.id}/keys`);
    page = dp.page;
    await visible(page.getByText('Your role (BILLING) cannot see API keys'));
    expect(await navLinks(dp)).toEqual(['Connect', 'Usage', 'Settings']);
    expect(await page.getByText('existing').count()).toBe(0);
    await page.goto(`${dash.url}/projects/${project.id}/members`);
    await visible(page.getByText('Your role (BILLING) cannot see the members'));
    expect(await page.getByText(owner.email).count()).toBe(0);
    await dp.checkPage('role-billing-members');
    dp.expectClean();
    await dp.close();

    // ADMIN: manages members, but the owner-only rules come back from the server as readable errors.
    dp = await signedIn(users.ADMIN, `/projects/${project.id}/members`);
    page = dp.page;
    const viewerRow = page.getByRole('row').filter({ hasText: users.VIEWER.email });
    await visible(viewerRow);
    dp.expectFailure(403, /\/members\/usr_/);
    await viewerRow.getByRole('combobox', { name: /^Role of / }).click();
    await page.getByRole('option', { name: 'OWNER' }).click();
    await visible(page.locator('.mantine-Notification-root').filter({ hasText: 'only an OWNER can' }));
    await visible(page.locator('.mantine-Notification-root').filter({ hasText: 'SERVICE_PERMISSION_DENIED' }));
    await page.getByRole('link', { name: 'Settings' }).click();
    await visible(page.getByText('Your role (ADMIN) cannot delete the project'));
    await visible(page.getByRole('button', { name: 'Rename' }));
    dp.expectClean();
    await dp.close();
  }, 120_000);

  it('pages the audit log with cursors kept in the URL, filters it and expands an entry', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Audited');
    for (let i = 1; i <= 27; i++) await createKey(dash.api, project.id, owner, 'development', `dev key ${i}`);
    await createKey(dash.api, project.id, owner, 'staging', 'the staging key');
    // 30 entries: project.created, 27 + 1 api_key.created, and this one.
    await dash.api.patch(`/v1/projects/${project.id}`, { token: owner.token, body: { name: 'Audited!' } });

    const dp = await signedIn(owner, `/projects/${project.id}/audit`);
    const { page } = dp;
    await visible(page.getByRole('heading', { name: 'Audit log' }));
    const rows = page.locator('tbody tr');
    await visible(page.getByText('project.updated'));
    expect(await rows.count()).toBe(25);
    await visible(page.getByText('Page 1'));
    await dp.checkPage('audit');

    await page.getByRole('button', { name: 'Older entries' }).click();
    await visible(page.getByText('Page 2'));
    await visible(page.getByText('project.created'));
    expect(await rows.count()).toBe(5);
    expect(await page.getByRole('button', { name: 'Older entries' }).isDisabled()).toBe(true);
    // The cursor is in the URL: a reload (or a copied link) shows the same page.
    expect(new URL(page.url()).searchParams.get('cursors')).toBeTruthy();
    await page.reload();
    await visible(page.getByText('project.created'));
    await visible(page.getByText('Page 2'));
    await page.getByRole('button', { name: 'Newer entries' }).click();
    await visible(page.getByText('project.updated'));

    // Filters: action and environment, both in the URL.
    await page.getByRole('combobox', { name: 'Environment' }).click();
    await page.getByRole('option', { name: 'Staging' }).click();
    await page.waitForURL(/environment=staging/);
    await page.locator('tbody tr').first().getByText('api_key.created').waitFor();
    expect(await rows.count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('environment')).toBe('staging');
    await page.getByRole('button', { name: /^Show details of api_key.created/ }).click();
    await visible(page.getByText('"name": "the staging key"', { exact: false }));
    await dp.checkPage('audit-filtered-details');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('textbox', { name: 'Action' }).fill('project.updated');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await page.waitForURL(/action=project.updated/);
    // The unfiltered rows stay on screen until the filtered page arrives.
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    await page.locator('tbody tr').filter({ hasText: 'project.updated' }).waitFor();
    // A new filter starts again from the newest entries; one page of them needs no pager.
    expect(new URL(page.url()).searchParams.get('cursors')).toBeNull();
    expect(await page.getByText(/^Page \d+$/).count()).toBe(0);
    dp.expectClean();
    await dp.close();
  }, 90_000);

  it('shows an error page, not a white screen, when a page cannot load (its script is gone)', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Broken');
    const dp = await signedIn(owner, `/projects/${project.id}/keys`);
    const { page } = dp;
    await visible(page.getByRole('heading', { name: 'API keys' }));
    // As after a server update while the tab stayed open: the audit page's chunk no longer exists.
    await page.route(/\/assets\/audit-[^/]+\.js$/, (route) => route.abort('failed'));
    // The failed import aborts the chunks loading beside it, and the router logs the error it shows.
    dp.expectFailure(0, /^\/assets\//);
    dp.expectConsoleError(/Failed to fetch dynamically imported module/);
    await page.getByRole('link', { name: 'Audit log' }).click();
    const crash = page.getByRole('alert').filter({ hasText: 'Something went wrong on this page' });
    await visible(crash);
    await dp.checkPage('error-page');
    // The shell stays usable: the user can go elsewhere.
    await page.getByRole('link', { name: 'API keys' }).click();
    await visible(page.getByRole('heading', { name: 'API keys' }));
    dp.expectClean();
    await dp.close();
  }, 60_000);
});
