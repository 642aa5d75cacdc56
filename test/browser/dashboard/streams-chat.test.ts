import { describe, expect, it } from 'vitest';
import { chromiumUnavailable } from '../../support/chromium.js';
import {
  createConversation,
  createKey,
  createLiveStream,
  createProject,
  jwtClaims,
  mintChatToken,
  registerUser,
  sendMessage,
} from '../../support/factories.js';
import { connectRealtime, connectSignaling } from '../../support/socket-client.js';
import { type DashboardPage, signIn, tabTo, useDashboard, visible } from './harness.js';

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))('dashboard: live streams and chat', () => {
  const dash = useDashboard();

  /** An owner signed in on `path` of a new project, with a development key for the test's own traffic. */
  async function ownerOn(path: (projectId: string) => string) {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Streams and chat');
    const { key } = await createKey(dash.api, project.id, owner);
    const dp = await dash.openPage(path(project.id));
    await signIn(dp, owner.email);
    return { dp, page: dp.page, project, key };
  }

  const dialog = ({ page }: DashboardPage) => page.getByRole('dialog');

  it('creates a stream, edits its title, issues host and viewer credentials, and follows it LIVE and ENDED', async () => {
    const { dp, page, key } = await ownerOn((id) => `/projects/${id}/live-streams`);
    await visible(page.getByText('No live streams yet'));
    await dp.checkPage('live-streams-empty');

    // Keyboard first: the title field and the create button are reachable.
    const title = page.getByRole('textbox', { name: 'Title' });
    await tabTo(page, title);
    await page.keyboard.type('Launch day');
    await tabTo(page, page.getByRole('button', { name: 'Create stream' }));
    await page.keyboard.press('Enter');
    await visible(page.getByRole('heading', { name: 'Launch day', level: 1 }));
    await visible(page.getByText('CREATED', { exact: true }));
    const streamId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    expect(streamId).toMatch(/^ls_/);

    await page.getByRole('button', { name: 'Edit title' }).click();
    await dialog(dp).getByRole('textbox', { name: 'Title' }).fill('Launch day, take two');
    await dialog(dp).getByRole('button', { name: 'Save title' }).click();
    await visible(page.getByRole('heading', { name: 'Launch day, take two', level: 1 }));
    expect((await dash.api.get(`/v1/live-streams/${streamId}`, { token: key })).body.title).toBe(
      'Launch day, take two',
    );

    // A host credential, shown once with copy: full publish, chat ADMIN.
    await page.getByRole('textbox', { name: 'Identity' }).fill('ana');
    await page.getByRole('combobox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: 'Host', exact: true }).click();
    await page.getByRole('button', { name: 'Issue credential' }).click();
    await visible(dialog(dp).getByText('Copy the tokens now: they are not shown again'));
    const hostToken = (await dialog(dp).getByLabel('RTC token').innerText()).trim();
    expect(jwtClaims(hostToken)).toMatchObject({ identity: 'ana', publish: true, publishData: true });
    const hostChat = (await dialog(dp).getByLabel('Chat token').innerText()).trim();
    expect(jwtClaims(hostChat)).toMatchObject({ scope: 'ADMIN' });
    await dp.checkPage('live-stream-credential');
    await dialog(dp).getByRole('button', { name: 'Copy the RTC token' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(hostToken);
    await dialog(dp).getByRole('button', { name: 'I have copied them' }).click();
    expect(await page.content()).not.toContain(hostToken);

    // A viewer credential: no publish right, chat MEMBER.
    await page.getByRole('textbox', { name: 'Identity' }).fill('vic');
    await page.getByRole('combobox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: 'Viewer', exact: true }).click();
    await page.getByRole('button', { name: 'Issue credential' }).click();
    const viewerToken = (await dialog(dp).getByLabel('RTC token').innerText()).trim();
    expect(jwtClaims(viewerToken)).toMatchObject({ identity: 'vic', publish: false, publishData: false });
    await dialog(dp).getByRole('button', { name: 'I have copied them' }).click();
    const anaRow = page.getByRole('row').filter({ hasText: 'ana' });
    await visible(anaRow.getByText('Host'));
    await visible(page.getByRole('row').filter({ hasText: 'vic' }).getByText('Viewer'));

    // The app's server starts it; the host joins the room: both show without a reload.
    expect((await dash.api.post(`/v1/live-streams/${streamId}/start`, { token: key })).status).toBe(200);
    await visible(page.getByText('LIVE', { exact: true }));
    const socket = connectSignaling(dash.url, hostToken);
    await socket.next('joined');
    await visible(anaRow.getByText('Connected'));

    // Removing the host (confirmed) disconnects them.
    await anaRow.getByRole('button', { name: 'Remove host ana' }).click();
    await dialog(dp).getByRole('button', { name: 'Remove host' }).click();
    expect(await socket.closed).toEqual({ code: 4403, reason: 'removed as a host' });
    await visible(anaRow.getByText('Not connected'));
    expect(await anaRow.getByRole('button', { name: 'Remove host ana' }).count()).toBe(0);

    // Ending, from the keyboard and confirmed.
    await tabTo(page, page.getByRole('button', { name: 'End stream' }));
    await page.keyboard.press('Enter');
    await dialog(dp).getByRole('button', { name: 'End stream' }).click();
    await visible(page.getByText('ENDED', { exact: true }));
    expect((await dash.api.get(`/v1/live-streams/${streamId}`, { token: key })).body.status).toBe('ENDED');
    expect(await page.getByRole('button', { name: 'Issue credential' }).count()).toBe(0);
    // Created, started and ended, each with its time.
    expect(await page.getByRole('region', { name: 'History' }).locator('time').count()).toBe(3);
    await dp.checkPage('live-stream');

    // The list: the ended stream, and one the app's server makes while the page is open.
    await page.getByRole('link', { name: '← All live streams' }).click();
    await visible(page.getByRole('row').filter({ hasText: 'Launch day, take two' }).getByText('ENDED'));
    await createLiveStream(dash.api, key, 'Made by the server');
    await visible(page.getByRole('link', { name: 'Made by the server' }));
    await dp.checkPage('live-streams');

    // 26 streams are two pages; the page walked to is in the address.
    for (let i = 0; i < 24; i++) await createLiveStream(dash.api, key, `Stream ${i}`);
    await page.reload();
    await visible(page.getByRole('link', { name: 'Stream 23' }));
    expect(await page.getByRole('link', { name: 'Launch day, take two' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Older streams' }).click();
    await visible(page.getByRole('link', { name: 'Launch day, take two' }));
    await visible(page.getByText('Page 2'));
    expect(new URL(page.url()).searchParams.get('cursors')).toBeTruthy();
    await page.reload();
    await visible(page.getByRole('link', { name: 'Launch day, take two' }));
    await page.getByRole('button', { name: 'Newer streams' }).click();
    await visible(page.getByRole('link', { name: 'Stream 23' }));
    expect(new URL(page.url()).searchParams.get('cursors')).toBeNull();
    dp.expectClean();
  }, 90_000);

  it('shows chat counts, conversations, connections and presence as the app chats, and never a message’s text', async () => {
    const { dp, page, key } = await ownerOn((id) => `/projects/${id}/chat`);
    await visible(page.getByText('No conversations yet'));
    await visible(page.getByText('No chat client is connected.'));
    await dp.checkPage('chat-empty');
    const figure = (label: string) => page.getByRole('listitem', { name: new RegExp(`^${label}: `) });
    await visible(page.getByRole('listitem', { name: 'Messages: 0' }));

    // The app's server makes a conversation and posts into it: the page follows from the live event stream.
    const conversation = await createConversation(dash.api, key, { name: 'support', members: ['alice', 'bob'] });
    const row = page.getByRole('row').filter({ hasText: 'support' });
    await visible(row);
    await visible(page.getByRole('listitem', { name: 'Conversations: 1' }));
    const secret = 'the launch code is 4242';
    await sendMessage(dash.api, key, conversation.id, { text: secret, senderId: 'alice' });
    await sendMessage(dash.api, key, conversation.id, { text: `${secret}, again`, senderId: 'bob' });
    await visible(page.getByRole('listitem', { name: 'Messages: 2' }));
    await visible(row.getByRole('cell', { name: '2', exact: true }).nth(1));

    // alice connects a realtime client: the connection and her presence show.
    const alice = connectRealtime(dash.url, await mintChatToken(dash.api, key, 'alice'));
    await alice.next('connected');
    await visible(page.getByRole('listitem', { name: 'Users online: 1' }));
    await visible(
      page
        .getByRole('row')
        .filter({ hasText: 'alice' })
        .getByText(/^conn_/),
    );
    await tabTo(page, row.getByRole('button', { name: 'Show presence in support' }));
    await page.keyboard.press('Enter');
    await visible(page.getByRole('listitem').filter({ hasText: 'alice: online (1)' }));
    await visible(page.getByRole('listitem').filter({ hasText: 'bob: offline' }));
    alice.close();
    await visible(page.getByRole('listitem').filter({ hasText: 'alice: offline' }));
    await visible(figure('Connections now').filter({ hasText: '0' }));

    expect(await page.content()).not.toContain('launch code');
    await dp.checkPage('chat');
    dp.expectClean();
  }, 90_000);
});
