import { describe, expect, it } from 'vitest';
import { chromiumUnavailable } from '../../support/chromium.js';
import {
  addMember,
  createConversation,
  createKey,
  createProject,
  createRoom,
  registerUser,
  sendMessage,
} from '../../support/factories.js';
import { connectRealtime } from '../../support/socket-client.js';
import { signIn, useDashboard, visible } from './harness.js';

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))('dashboard: resetting an environment', () => {
  const dash = useDashboard();

  it('resets staging from Settings after a confirmation naming it, shows what went, and never offers production', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Reset demo');
    const keys = {
      development: (await createKey(dash.api, project.id, owner, 'development')).key,
      staging: (await createKey(dash.api, project.id, owner, 'staging')).key,
    };
    for (const key of Object.values(keys)) {
      await createRoom(dash.api, key);
      const conversation = await createConversation(dash.api, key, { members: ['alice'] });
      await sendMessage(dash.api, key, conversation.id, { senderId: 'alice', text: 'hello' });
    }
    const chatToken = (await dash.api.post('/v1/chat/tokens', { token: keys.staging, body: { userId: 'alice' } })).body
      .token;
    const socket = connectRealtime(dash.url, chatToken);
    await socket.next('connected');
    const rooms = async (key: string) => (await dash.api.get('/v1/rooms', { token: key })).body.data.length;

    // Opened from a staging page, the control starts on staging.
    const dp = await dash.openPage(`/projects/${project.id}/settings?env=staging`);
    await signIn(dp, owner.email);
    const { page } = dp;
    await visible(page.getByRole('heading', { name: 'Reset an environment' }));
    const choice = page.getByRole('radiogroup', { name: 'Environment to test' });
    expect(await choice.getByRole('radio', { name: 'Staging' }).isChecked()).toBe(true);
    expect(await choice.getByRole('radio', { name: 'Production' }).isDisabled()).toBe(true);
    await visible(page.getByText('Production cannot be chosen: its data is your live app’s.'));
    await dp.checkPage('settings-reset');

    // Development first chosen, then staging: the button and the dialog name the one chosen.
    await choice.getByText('Development').click();
    await visible(page.getByRole('button', { name: 'Reset Development…' }));
    await choice.getByText('Staging').click();
    await page.getByRole('button', { name: 'Reset Staging…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Staging of Reset demo?' });
    await visible(dialog);
    await dp.checkPage('settings-reset-confirm');
    // Cancel changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await rooms(keys.staging)).toBe(1);

    // Another tab watches staging's rooms and its live tail: both follow the reset by themselves.
    const other = await dash.openPage(`/projects/${project.id}/rooms?env=staging`);
    await signIn(other, owner.email);
    await visible(other.page.getByRole('row').filter({ hasText: 'room-' }));
    const tail = await dash.openPage(`/projects/${project.id}/live?env=staging`);
    await signIn(tail, owner.email);
    await visible(tail.page.getByText('Live', { exact: true }).first());
    await tail.checkPage('live-tail-staging');

    await page.getByRole('button', { name: 'Reset Staging…' }).click();
    await dialog.getByRole('button', { name: 'Reset Staging' }).click();
    await visible(page.getByText('Staging was reset', { exact: true }).first());
    const removed = page.getByRole('list', { name: 'Removed from Staging' });
    await visible(removed);
    const items = await removed.getByRole('listitem').allInnerTexts();
    expect(items).toEqual(expect.arrayContaining(['Rooms: 1', 'Conversations: 1', 'Messages: 1']));
    expect(items.some((item) => item.startsWith('Reactions'))).toBe(false); // none there, so not listed
    await dp.checkPage('settings-reset-done');

    expect(await rooms(keys.staging)).toBe(0);
    expect(await rooms(keys.development)).toBe(1);
    await visible(other.page.getByText('No rooms yet'));
    await visible(tail.page.getByText(/removed: Rooms 1 · Conversations 1 · Conversation members 1 · Messages 1/));
    for (const tab of [other, tail]) {
      tab.expectClean();
      await tab.close();
    }
    expect(await socket.closed).toEqual({ code: 4205, reason: 'environment reset' });
    dp.expectClean();
    await dp.close();
  }, 90_000);

  it('tells a role without project:write why there is no reset control', async () => {
    const owner = await registerUser(dash.api);
    const developer = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Look only');
    await addMember(dash.api, project.id, owner, developer, 'DEVELOPER');
    const dp = await dash.openPage(`/projects/${project.id}/settings`);
    await signIn(dp, developer.email);
    const { page } = dp;
    await visible(page.getByText('Your role (DEVELOPER) cannot reset an environment'));
    expect(await page.getByRole('button', { name: /^Reset / }).count()).toBe(0);
    await dp.checkPage('settings-reset-developer');
    dp.expectClean();
    await dp.close();
  }, 60_000);
});
