import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumUnavailable, MEDIA_CHROMIUM_ARGS } from '../../support/chromium.js';
import {
  createKey,
  createProject,
  createRoom,
  mintRtcToken,
  registerUser,
  type TestUser,
} from '../../support/factories.js';
import { connectSignaling } from '../../support/socket-client.js';
import { type DashboardPage, signIn, tabTo, useDashboard, visible } from './harness.js';

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))(
  'dashboard: rooms, token playground, test call',
  () => {
    const dash = useDashboard({
      chromiumArgs: MEDIA_CHROMIUM_ARGS,
    });

    async function signedIn(user: TestUser, path: string): Promise<DashboardPage> {
      const dp = await dash.openPage(path);
      await signIn(dp, user.email);
      return dp;
    }

    async function setting() {
      const owner = await registerUser(dash.api);
      const project = await createProject(dash.api, owner, 'Calls');
      const { key } = await createKey(dash.api, project.id, owner, 'development');
      return { owner, project, key };
    }

    const rowsOf = (page: Page) => page.getByRole('table').first().getByRole('row');

    it('creates, pages and deletes rooms; shows participants as they join and leave; mints tokens with the claims asked for', async () => {
      const { owner, project, key } = await setting();
      const dp = await signedIn(owner, `/projects/${project.id}/rooms`);
      const { page } = dp;
      await visible(page.getByRole('heading', { name: 'Rooms', level: 1 }));
      await visible(page.getByText('No rooms yet'));
      expect(await page.getByText('create them from your server with').innerText()).toContain('POST /v1/rooms');
      await visible(page.getByRole('status', { name: 'Live updates: Live' }));
      await dp.checkPage('rooms-empty');

      // Create through the form (reached by keyboard).
      const name = page.getByRole('textbox', { name: 'Room name' });
      await tabTo(page, name);
      await page.keyboard.type('standup');
      await page.keyboard.press('Enter');
      await visible(page.getByText('Created room standup'));
      await visible(page.getByRole('link', { name: 'standup' }));

      // 21 more from "the app's server": the list shows them live, 20 a page, newest first.
      for (let i = 1; i <= 21; i++) await createRoom(dash.api, key, `room-${String(i).padStart(2, '0')}`);
      await visible(page.getByRole('link', { name: 'room-21' }));
      await expect.poll(() => rowsOf(page).count()).toBe(21);
      expect(await page.getByRole('link', { name: 'standup' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Older rooms' }).click();
      await visible(page.getByRole('link', { name: 'standup' }));
      expect(await rowsOf(page).count()).toBe(3);
      expect(new URL(page.url()).searchParams.get('cursors')).toBeTruthy();
      expect(await page.getByText('Page 2').count()).toBe(1);
      // The page is in the address: a reload shows the same page.
      await page.reload();
      await visible(page.getByRole('link', { name: 'standup' }));
      await dp.checkPage('rooms-page-2');

      // Delete from the list, after confirming.
      await page.getByRole('button', { name: 'Delete room-01' }).click();
      await visible(page.getByRole('dialog', { name: 'Delete room “room-01”?' }));
      await page.getByRole('button', { name: 'Delete room', exact: true }).click();
      await visible(page.getByText('Deleted room room-01'));
      await expect.poll(() => page.getByRole('link', { name: 'room-01' }).count()).toBe(0);

      // The room's page: nobody yet, then a participant joining over the signaling socket from here.
      await page.getByRole('link', { name: 'standup' }).click();
      await visible(page.getByRole('heading', { name: 'standup', level: 1 }));
      await visible(page.getByText('Nobody is in this room now.'));
      // The mesh: media never reaches the server, and the room's media panel says so.
      await visible(page.getByText('Media does not go through this server'));
      const standup = (await dash.api.get(`/v1/rooms?limit=100`, { token: key })).body.data.find(
        (r: { name: string }) => r.name === 'standup',
      );
      const { token } = await mintRtcToken(dash.api, key, standup.id, { identity: 'ada', publishVideo: false });
      const ada = connectSignaling(dash.url, token);
      await ada.next('joined');
      const adaRow = page.getByRole('table', { name: 'Participants' }).getByRole('row').filter({ hasText: 'ada' });
      await visible(adaRow);
      expect(await adaRow.getByText('audio').count()).toBe(1);
      expect(await adaRow.getByText('data').count()).toBe(1);
      expect(await adaRow.getByText('video').count()).toBe(0);
      await dp.checkPage('room-participants');
      ada.close();
      await visible(page.getByText('Nobody is in this room now.'));

      // Token playground: the claims shown are those asked for.
      await page.getByRole('textbox', { name: 'Identity' }).fill('grace');
      await page.getByRole('switch', { name: /^Publish video/ }).click({ force: true });
      await page.getByRole('switch', { name: /^Publish data/ }).click({ force: true });
      await page.getByRole('combobox', { name: 'Lifetime' }).click();
      await page.getByRole('option', { name: '1 hour' }).click();
      const mintButton = page.getByRole('button', { name: 'Mint token' });
      await tabTo(page, mintButton);
      await page.keyboard.press('Enter');
      const claimsTable = page.getByRole('table', { name: 'Decoded claims' });
      await visible(claimsTable);
      const claims: Record<string, unknown> = {};
      for (const row of await claimsTable.getByRole('row').all()) {
        const cells = await row.getByRole('cell').allInnerTexts();
        if (cells.length === 2) claims[cells[0]] = JSON.parse(cells[1].replace(/\s*\(.*\)$/, ''));
      }
      expect(claims).toMatchObject({
        prj: project.id,
        env: 'development',
        room: standup.id,
        identity: 'grace',
        publish: true,
        publishAudio: true,
        publishVideo: false,
        publishData: false,
        subscribe: true,
      });
      expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
      await page.getByRole('button', { name: 'Copy token' }).click();
      await visible(page.getByRole('button', { name: 'Copied' }));
      const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
      expect(copied).toBe((await page.getByLabel('The minted token').innerText()).trim());
      // The copied token joins the room with those rights.
      const grace = connectSignaling(dash.url, copied);
      expect((await grace.next('joined')).self.permissions).toMatchObject({ publishVideo: false, publishData: false });
      grace.close();
      await dp.checkPage('room-token-playground');
      const audit = await dash.api.get(`/v1/projects/${project.id}/audit-logs?action=rtc_token.created`, {
        token: owner.token,
      });
      expect(audit.body.data[0].details).toMatchObject({ identity: 'grace', publishVideo: false });

      // Delete from the room's page: back to the list, the room gone.
      await tabTo(page, page.getByRole('button', { name: 'Delete room' }));
      await page.keyboard.press('Enter');
      await page.getByRole('dialog').getByRole('button', { name: 'Delete room' }).click();
      await visible(page.getByRole('heading', { name: 'Rooms', level: 1 }));
      expect((await dash.api.get(`/v1/rooms/${standup.id}`, { token: key })).status).toBe(404);
      dp.expectClean();
    }, 90_000);

    it('holds a test call between two dashboard pages with the fake camera and microphone: frames decoded on both', async () => {
      const { owner, project, key } = await setting();
      const room = await createRoom(dash.api, key, 'test-call');
      const path = `/projects/${project.id}/rooms/${room.id}/call`;

      async function joinAs(identity: string): Promise<DashboardPage> {
        const dp = await signedIn(owner, path);
        await visible(dp.page.getByRole('heading', { name: 'Test call in test-call' }));
        await dp.page.getByRole('textbox', { name: 'Join as (identity)' }).fill(identity);
        await tabTo(dp.page, dp.page.getByRole('button', { name: 'Join call' }));
        await dp.page.keyboard.press('Enter');
        await visible(dp.page.getByRole('region', { name: `You (${identity})` }));
        return dp;
      }
      const framesDecoded = async (page: Page, from: string) => {
        const text = await page.getByRole('region', { name: from }).innerText();
        return Number(/Frames decoded: (\d+)/.exec(text)?.[1] ?? 0);
      };

      const alice = await joinAs('alice');
      await visible(alice.page.getByText('Nobody else is here yet.'));
      await alice.checkPage('test-call-alone');
      const bob = await joinAs('bob');
      await expect.poll(() => framesDecoded(bob.page, 'alice'), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect.poll(() => framesDecoded(alice.page, 'bob'), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect
        .poll(async () =>
          /Audio packets received: [1-9]/.test(await alice.page.getByRole('region', { name: 'bob' }).innerText()),
        )
        .toBe(true);
      await visible(alice.page.getByRole('region', { name: 'bob' }).getByText('connected'));
      const figures = {
        aliceFromBob: await framesDecoded(alice.page, 'bob'),
        bobFromAlice: await framesDecoded(bob.page, 'alice'),
      };
      console.log(`test call: frames decoded ${JSON.stringify(figures)}`);

      // The server sees both.
      const listed = await dash.api.get(`/v1/rooms/${room.id}/participants`, { token: key });
      expect(listed.body.data.map((p: { identity: string }) => p.identity).sort()).toEqual(['alice', 'bob']);

      await alice.page.getByRole('button', { name: 'Mute microphone' }).click();
      await visible(alice.page.getByRole('button', { name: 'Unmute microphone' }));
      await alice.page.getByRole('button', { name: 'Turn camera off' }).click();
      await visible(alice.page.getByRole('button', { name: 'Turn camera on' }));
      await alice.checkPage('test-call');

      await bob.page.getByRole('button', { name: 'Leave call' }).click();
      await visible(bob.page.getByRole('button', { name: 'Join call' }));
      await visible(alice.page.getByText('Nobody else is here yet.'));
      alice.expectClean();
      bob.expectClean();
    }, 90_000);
  },
);

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))(
  'dashboard: a test call on a machine without a camera',
  () => {
    // No fake devices: Chromium finds no camera or microphone, as on a server or a desktop without them.
    const dash = useDashboard();

    it('says once what to do: untick Camera and Microphone, then joins without them', async () => {
      const owner = await registerUser(dash.api);
      const project = await createProject(dash.api, owner, 'No camera');
      const { key } = await createKey(dash.api, project.id, owner, 'development');
      const room = await createRoom(dash.api, key, 'no-camera');
      const dp = await dash.openPage(`/projects/${project.id}/rooms/${room.id}/call`);
      // Allowed, so that what the browser answers is that there is no device (not that the user said no).
      await dp.context.context.grantPermissions(['camera', 'microphone']);
      await signIn(dp, owner.email);
      const { page } = dp;
      await page.getByRole('button', { name: 'Join call' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'Could not join' });
      await visible(alert);
      expect(await alert.innerText()).toContain(
        'No camera or microphone found: untick Camera and Microphone to join without them.',
      );
      // Once: not a toast as well, and no code meant for programs.
      expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
      expect(await alert.innerText()).not.toContain('CLIENT_ERROR');
      await dp.checkPage('test-call-no-camera');

      await page.getByRole('checkbox', { name: 'Camera' }).uncheck();
      await page.getByRole('checkbox', { name: 'Microphone' }).uncheck();
      await page.getByRole('button', { name: 'Join call' }).click();
      await visible(page.getByRole('button', { name: 'Leave call' }));
      await page.getByRole('button', { name: 'Leave call' }).click();
      dp.expectClean();
      await dp.close();
    }, 60_000);
  },
);
