/**
 * Bitrate and keyframes through the SFU with Chromium (issue 47, step 5): a publisher capped by its subscribers'
 * REMB estimates (server/media/bitrate.ts) still ramps up with one healthy subscriber, and a viewer who joins while
 * the video flows decodes it (a keyframe asked for on subscribe). One server and one browser for the file.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppOrigin, appPage, startAppOrigin } from '../support/app-origin.js';
import { chromiumUnavailable, launchChromium, MEDIA_CHROMIUM_ARGS, type TestBrowser } from '../support/chromium.js';
import { createRoom, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { eventually } from '../support/wait.js';

const PAGE_CLIENT = readFileSync(new URL('./sfu-page-client.js', import.meta.url), 'utf8');

// The page globals the callbacks below use inside the browser (this project's TypeScript has no DOM library).
interface Stats {
  type: string;
  kind?: string;
  targetBitrate?: number;
}
declare const window: {
  sfuClient: {
    join(options: { baseUrl: string; token: string; publish: boolean }): Promise<void>;
    framesDecoded(): Promise<{ frames: number; sinceJoinMs: number }>;
    publisher?: { getStats(): Promise<Map<string, Stats>> };
  };
  sfuState: { serverSdps: string[] } | undefined;
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rtc: { media: 'sfu' } });
});
afterAll(async () => {
  await server?.dispose();
});

describe.skipIf(chromiumUnavailable('the SFU bitrate test'))('bitrate and keyframes through the SFU', () => {
  let chromium: TestBrowser;
  let app: AppOrigin;
  beforeAll(async () => {
    app = await startAppOrigin({
      '/': appPage('SFU bitrate', '/sfu-page-client.js'),
      '/sfu-page-client.js': { type: 'text/javascript', body: PAGE_CLIENT },
    });
    chromium = await launchChromium({ args: MEDIA_CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  async function join(token: string, publish: boolean): Promise<Page> {
    const context = await chromium.newOfflineContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/`);
    await page.waitForFunction(() => window.sfuClient !== undefined);
    await page.evaluate((o) => window.sfuClient.join(o), { baseUrl: server.url, token, publish });
    return page;
  }
  const firstFrame = (page: Page) =>
    eventually(
      () => page.evaluate(() => window.sfuClient.framesDecoded()),
      ({ frames }) => frames > 0,
      20_000,
    );
  /** The publisher's video encoder's target (bits per second), which a REMB from the server caps. */
  const targetBitrate = (page: Page) =>
    page.evaluate(async () => {
      for (const report of (await window.sfuClient.publisher?.getStats())?.values() ?? [])
        if (report.type === 'outbound-rtp' && report.kind === 'video') return report.targetBitrate ?? 0;
      return 0;
    });

  it('lets a publisher’s bitrate ramp up with one healthy subscriber, and shows a late viewer the video', async () => {
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const room = await createRoom(api, keys.development, 'sfu-bitrate');
    const token = async (identity: string, publish: boolean) =>
      (await mintRtcToken(api, keys.development, room.id, { identity, publish })).token;

    const publisher = await join(await token('camera', true), true);
    await publisher.waitForFunction(() => (window.sfuState?.serverSdps.length ?? 0) > 0);
    // The server's answer takes Chromium's RTX for VP8: the publisher repairs its losses on it.
    const [answer] = (await publisher.evaluate(() => window.sfuState?.serverSdps)) ?? [];
    const vp8 = /^a=rtpmap:(\d+) VP8\/90000/m.exec(answer ?? '')?.[1];
    expect(answer).toMatch(new RegExp(`^a=fmtp:\\d+ apt=${vp8}\\s*$`, 'm'));
    const viewer = await join(await token('viewer', false), false);
    await firstFrame(viewer);
    const start = await targetBitrate(publisher);
    const rampFrom = performance.now();
    // Chromium's first REMB comes ≈5 s after the video starts, at ≈400 kbps, and then rises with what it receives: twice the start needs it.
    const ramped = await eventually(
      () => targetBitrate(publisher),
      (target) => target >= 2 * start,
      30_000,
    );
    console.info(
      `SFU bitrate: the publisher's target rose from ${start} to ${ramped} bps in ${Math.round(performance.now() - rampFrom)} ms with one subscriber`,
    );
    expect(ramped).toBeGreaterThanOrEqual(2 * start);

    // A viewer joining while the video flows decodes it.
    const late = await join(await token('late-viewer', false), false);
    const { sinceJoinMs } = await firstFrame(late);
    console.info(`SFU bitrate: a late viewer's first frame ${Math.round(sinceJoinMs)} ms after it joined`);
  }, 90_000);
});
