import { afterAll, describe, expect, it } from 'vitest';
import type { RTCPeerConnection } from 'werift';
import { publishLossyAudio, subscribe } from '../../media/media-traffic.js';
import { chromiumUnavailable } from '../../support/chromium.js';
import { createKey, createProject, createRoom, mintRtcToken, registerUser } from '../../support/factories.js';
import { connectSignaling } from '../../support/socket-client.js';
import { signIn, useDashboard, visible } from './harness.js';

describe.skipIf(chromiumUnavailable('the dashboard browser tests'))('dashboard: a room’s media (SFU)', () => {
  const dash = useDashboard({ server: { rtc: { media: 'sfu' } } });
  const clients: RTCPeerConnection[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((pc) => pc.close()));
  });

  it('shows each participant’s tracks with bitrate and loss, read again as media flows', async () => {
    const owner = await registerUser(dash.api);
    const project = await createProject(dash.api, owner, 'Media');
    const { key } = await createKey(dash.api, project.id, owner, 'development');
    const room = await createRoom(dash.api, key, 'broadcast');
    const dp = await dash.openPage(`/projects/${project.id}/rooms/${room.id}`);
    await signIn(dp, owner.email);
    const { page } = dp;
    await visible(page.getByRole('heading', { name: 'broadcast', level: 1 }));
    await visible(page.getByText('Nobody sends or receives media in this room now.'));

    // A speaker sending audio with every tenth packet missing, a listener receiving it (werift, in this process).
    const join = async (identity: string) => {
      const socket = connectSignaling(
        dash.server.url,
        (await mintRtcToken(dash.api, key, room.id, { identity })).token,
      );
      await socket.next('joined');
      return socket;
    };
    const speaker = await join('speaker');
    const listener = await join('listener');
    const publisher = await publishLossyAudio(speaker, clients);
    await subscribe(listener, clients);

    try {
      const table = page.getByRole('table', { name: 'Media' });
      const row = (name: RegExp) => table.getByRole('row', { name });
      await visible(row(/speaker sends audio/));
      await visible(row(/listener receives audio from speaker/));
      // The page reads the counters again every 2 s: the bitrate appears once the server has sampled twice.
      await expect.poll(() => row(/speaker sends audio/).innerText(), { timeout: 20_000 }).toMatch(/\d+ kbps/);
      await expect.poll(() => row(/from speaker/).innerText(), { timeout: 20_000 }).toMatch(/\d+ kbps/);
      const cells = await row(/speaker sends audio/)
        .getByRole('cell')
        .allInnerTexts();
      expect(cells.slice(0, 2)).toEqual(['speaker', 'sends audio']);
      // Every tenth sequence number never came: about 10 % lost before the server.
      const [, lost, percent] = /^([\d,]+) \(([\d.]+)%\)$/.exec(cells[4] ?? '') ?? [];
      expect(Number(lost?.replace(/,/g, ''))).toBeGreaterThan(0);
      expect(Number(percent)).toBeGreaterThanOrEqual(8);
      expect(Number(percent)).toBeLessThanOrEqual(12);
      await dp.checkPage('room-media');
      dp.expectClean();
    } finally {
      await publisher.stop();
      speaker.close();
      listener.close();
    }
    await visible(page.getByText('Nobody sends or receives media in this room now.'));
    await dp.close();
  }, 90_000);
});
