import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumUnavailable, MEDIA_CHROMIUM_ARGS } from '../../support/chromium.js';
import { createKey, createProject, createRoom, registerUser } from '../../support/factories.js';
import { type DashboardPage, signIn, useDashboard, visible } from './harness.js';

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))(
  'dashboard: a test call on a server running the SFU',
  () => {
    const dash = useDashboard({ chromiumArgs: MEDIA_CHROMIUM_ARGS, server: { rtc: { media: 'sfu' } } });

    it('holds the call through the server with no change of the page: frames decoded on both, a leave seen', async () => {
      const owner = await registerUser(dash.api);
      const project = await createProject(dash.api, owner, 'SFU calls');
      const { key } = await createKey(dash.api, project.id, owner, 'development');
      const room = await createRoom(dash.api, key, 'sfu-call');

      /** The types of the frames each page sent on its signaling socket. */
      const sent = new Map<string, string[]>();
      async function joinAs(identity: string): Promise<DashboardPage> {
        const dp = await dash.openPage(`/projects/${project.id}/rooms/${room.id}/call`);
        await signIn(dp, owner.email);
        const types: string[] = [];
        sent.set(identity, types);
        dp.page.on('websocket', (socket) => {
          if (!socket.url().includes('/v1/rtc')) return;
          socket.on('framesent', ({ payload }) => types.push(JSON.parse(String(payload)).type));
        });
        await dp.page.getByRole('textbox', { name: 'Join as (identity)' }).fill(identity);
        await dp.page.getByRole('button', { name: 'Join call' }).click();
        await visible(dp.page.getByRole('region', { name: `You (${identity})` }));
        return dp;
      }
      const framesDecoded = async (page: Page, from: string) => {
        const text = await page.getByRole('region', { name: from }).innerText();
        return Number(/Frames decoded: (\d+)/.exec(text)?.[1] ?? 0);
      };

      const alice = await joinAs('alice');
      const bob = await joinAs('bob');
      await expect.poll(() => framesDecoded(bob.page, 'alice'), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect.poll(() => framesDecoded(alice.page, 'bob'), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect
        .poll(async () =>
          /Audio packets received: [1-9]/.test(await alice.page.getByRole('region', { name: 'bob' }).innerText()),
        )
        .toBe(true);
      await visible(alice.page.getByRole('region', { name: 'bob' }).getByText('connected'));
      // Through the server: each page published once and answered the server's offers, and offered no peer.
      for (const identity of ['alice', 'bob']) {
        expect(sent.get(identity)).toContain('publish');
        expect(sent.get(identity)).toContain('subscribe_answer');
        expect(sent.get(identity)).not.toContain('offer');
      }

      await bob.page.getByRole('button', { name: 'Leave call' }).click();
      await visible(bob.page.getByRole('button', { name: 'Join call' }));
      await visible(alice.page.getByText('Nobody else is here yet.'));
      alice.expectClean();
      bob.expectClean();
    }, 90_000);
  },
);
