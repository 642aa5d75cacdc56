import { describe, expect, it } from 'vitest';
import { chromiumUnavailable } from '../../support/chromium.js';
import { createKey, createProject, createRoom, registerUser } from '../../support/factories.js';
import { signIn, useDashboard, visible } from './harness.js';

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))('dashboard: environment snapshots', () => {
  const dash = useDashboard();

  it('saves staging as a snapshot, lists what it holds, restores it after a confirmation, and deletes it', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Snapshot demo');
    const key = (await createKey(dash.api, project.id, owner, 'staging')).key;
    await createRoom(dash.api, key);
    const rooms = async () => (await dash.api.get('/v1/rooms', { token: key })).body.data.length;

    const dp = await dash.openPage(`/projects/${project.id}/settings?env=staging`);
    await signIn(dp, owner.email);
    const { page } = dp;
    await visible(page.getByRole('heading', { name: 'Snapshots' }));
    await visible(page.getByText('No snapshots of staging yet.'));
    await page.getByRole('textbox', { name: 'Snapshot name' }).fill('one-room');
    await page.getByRole('button', { name: 'Save snapshot' }).click();
    const table = page.getByRole('table', { name: 'Snapshots of Staging' });
    const row = table.getByRole('row').filter({ hasText: 'one-room' });
    await visible(row);
    expect(await row.innerText()).toContain('Rooms 1');
    expect(await row.innerText()).toContain(owner.email);

    await createRoom(dash.api, key);
    expect(await rooms()).toBe(2);
    await row.getByRole('button', { name: 'Restore one-room' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore one-room into Staging?' });
    await visible(dialog);
    await dp.checkPage('settings-snapshots-restore');
    await dialog.getByRole('button', { name: 'Restore one-room' }).click();
    await visible(page.getByText('Staging is back to one-room'));
    expect(await rooms()).toBe(1);
    await dp.checkPage('settings-snapshots');

    await row.getByRole('button', { name: 'Delete one-room' }).click();
    await visible(page.getByText('No snapshots of staging yet.'));
    dp.expectClean();
    await dp.close();
  }, 90_000);
});
