import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppOrigin, appPage, startAppOrigin } from '../support/app-origin.js';
import { chromiumUnavailable, launchChromium, MEDIA_CHROMIUM_ARGS, type TestBrowser } from '../support/chromium.js';
import { createRoom, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

const PAGE_CLIENT = readFileSync(new URL('./rtc-page-client.js', import.meta.url), 'utf8');

// The page globals the callbacks below use inside the browser (this project's TypeScript has no DOM library).
interface RtcState {
  joined: unknown;
  errors: { code: string; refused?: string }[];
  offersReceived: number;
}
interface VideoElement {
  videoWidth: number;
  videoHeight: number;
}
declare const window: {
  switchboardRtc: { join(options: { baseUrl: string; token: string; publish: boolean }): Promise<void> };
  rtcState: RtcState | undefined;
  rtcPublishTo(identity: string): Promise<void>;
};
declare const document: {
  querySelector(selector: string): VideoElement | null;
  querySelectorAll(selector: string): { length: number };
};

describe.skipIf(chromiumUnavailable('the WebRTC browser test'))('two browsers in one room over /v1/rtc', () => {
  let server: TestServer;
  let chromium: TestBrowser;
  let app: AppOrigin;
  beforeAll(async () => {
    server = await startTestServer();
    app = await startAppOrigin({
      '/': appPage('Test call', '/rtc-page-client.js'),
      '/rtc-page-client.js': { type: 'text/javascript', body: PAGE_CLIENT },
    });
    chromium = await launchChromium({
      args: MEDIA_CHROMIUM_ARGS,
    });
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    await app?.close();
    await server?.dispose();
  });

  async function openPage(): Promise<{ page: Page; blocked: string[] }> {
    const context = await chromium.newOfflineContext();
    const page = await context.newPage();
    // An app's page on another origin, as a real app is: a loopback origin is a secure context, so the camera works.
    await page.goto(`${app.url}/`);
    await page.waitForFunction(() => window.switchboardRtc !== undefined);
    return { page, blocked: context.blocked };
  }

  it('delivers the publisher’s video to a viewer, and refuses the viewer’s own video', async () => {
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const room = await createRoom(api, keys.development, 'video-call');
    const host = await mintRtcToken(api, keys.development, room.id, { identity: 'host' });
    const viewer = await mintRtcToken(api, keys.development, room.id, { identity: 'viewer', publish: false });

    const a = await openPage();
    await a.page.evaluate((o) => window.switchboardRtc.join(o), {
      baseUrl: server.url,
      token: host.token,
      publish: true,
    });
    await a.page.waitForFunction(() => window.rtcState?.joined);
    const b = await openPage();
    await b.page.evaluate((o) => window.switchboardRtc.join(o), {
      baseUrl: server.url,
      token: viewer.token,
      publish: false,
    });

    // The viewer's page plays the host's fake camera.
    await b.page.waitForFunction(
      () => {
        const video = document.querySelector('video[data-from="host"]');
        return video !== null && video.videoWidth > 0;
      },
      undefined,
      { timeout: 30_000 },
    );
    const size = await b.page.evaluate(() => {
      const video = document.querySelector('video[data-from="host"]') as VideoElement;
      return { width: video.videoWidth, height: video.videoHeight };
    });
    expect(size.width).toBeGreaterThan(0);
    expect(size.height).toBeGreaterThan(0);

    // The viewer tries to publish its own camera: the server refuses the offer and the host never sees it.
    const offersBefore = await a.page.evaluate(() => window.rtcState?.offersReceived);
    await b.page.evaluate(() => window.rtcPublishTo('host'));
    await b.page.waitForFunction(() => (window.rtcState?.errors.length ?? 0) > 0);
    expect(await b.page.evaluate(() => window.rtcState?.errors)).toEqual([
      expect.objectContaining({ code: 'publish_not_allowed', refused: 'offer' }),
    ]);
    expect(await a.page.evaluate(() => window.rtcState?.offersReceived)).toBe(offersBefore);
    expect(await a.page.evaluate(() => document.querySelectorAll('video').length)).toBe(0);

    // Nothing left the machine.
    expect([...a.blocked, ...b.blocked]).toEqual([]);
  }, 90_000);
});
