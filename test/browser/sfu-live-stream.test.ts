/**
 * A live stream through the SFU (issue 47, item 2): the host publishes once and the server fans its video out to
 * every viewer; viewers only receive. Chromium with its fake camera, one server for the file.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppOrigin, appPage, startAppOrigin } from '../support/app-origin.js';
import { chromiumUnavailable, launchChromium, MEDIA_CHROMIUM_ARGS, type TestBrowser } from '../support/chromium.js';
import { createLiveStream, projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { connectSignaling, sdp } from '../support/socket-client.js';
import { eventually } from '../support/wait.js';

const PAGE_CLIENT = readFileSync(new URL('./sfu-page-client.js', import.meta.url), 'utf8');
const VIEWERS = ['viewer-1', 'viewer-2', 'viewer-3'];

// The page globals the callbacks below use inside the browser (this project's TypeScript has no DOM library).
declare const window: {
  sfuClient: {
    join(options: { baseUrl: string; token: string; publish: boolean }): Promise<void>;
    framesDecoded(): Promise<{ frames: number; sinceJoinMs: number }>;
    receivedTracks(): Record<string, string>;
    videoStreamsSent(): Promise<number>;
  };
  sfuState:
    | {
        serverSdps: string[];
        errors: { code: string }[];
        tracks: { mid: string; participant: string; kind: string }[] | null;
        closed: { code: number } | null;
      }
    | undefined;
};

let server: TestServer;
let chromium: TestBrowser;
let app: AppOrigin;
beforeAll(async () => {
  server = await startTestServer({ rtc: { media: 'sfu' } });
});
afterAll(async () => {
  await chromium?.close();
  await app?.close();
  await server?.dispose();
});

describe.skipIf(chromiumUnavailable('the SFU live stream test'))('a live stream through the SFU', () => {
  beforeAll(async () => {
    app = await startAppOrigin({
      '/': appPage('SFU live stream', '/sfu-page-client.js'),
      '/sfu-page-client.js': { type: 'text/javascript', body: PAGE_CLIENT },
    });
    chromium = await launchChromium({
      args: MEDIA_CHROMIUM_ARGS,
    });
  }, 60_000);

  async function joinPage(token: string, publish: boolean): Promise<Page> {
    const context = await chromium.newOfflineContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/`);
    await page.waitForFunction(() => window.sfuClient !== undefined);
    await page.evaluate((o) => window.sfuClient.join(o), { baseUrl: server.url, token, publish });
    return page;
  }

  it('sends the host’s one video stream to three viewers, refuses a viewer’s publish, ends with the host', async () => {
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const key = keys.development;
    const stream = await createLiveStream(api, key, 'SFU launch');
    expect((await api.post(`/v1/live-streams/${stream.id}/start`, { token: key })).status).toBe(200);
    const credential = async (path: string, body: object) => {
      const res = await api.post(`/v1/live-streams/${stream.id}/${path}`, { token: key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (res.body as { rtc: { token: string } }).rtc.token;
    };
    const hostToken = await credential('hosts', { identity: 'host', role: 'HOST' });
    const viewerTokens = await Promise.all(VIEWERS.map((identity) => credential('viewer-tokens', { identity })));

    const host = await joinPage(hostToken, true);
    await host.waitForFunction(() => (window.sfuState?.serverSdps.length ?? 0) > 0);
    const viewers = await Promise.all(viewerTokens.map((token) => joinPage(token, false)));

    // Every viewer decodes the host's video, more and more of it.
    const firstFrames = await Promise.all(
      viewers.map((page) =>
        eventually(
          () => page.evaluate(() => window.sfuClient.framesDecoded()),
          ({ frames }) => frames > 0,
          20_000,
        ),
      ),
    );
    await Promise.all(
      viewers.map((page, i) =>
        eventually(
          () => page.evaluate(() => window.sfuClient.framesDecoded()),
          ({ frames }) => frames > firstFrames[i].frames + 5,
          10_000,
        ),
      ),
    );
    console.info(
      `SFU live stream: first frame at the viewers ${firstFrames.map(({ sinceJoinMs }) => Math.round(sinceJoinMs)).join(', ')} ms after each joined`,
    );
    for (const page of viewers) {
      const state = await page.evaluate(() => window.sfuState);
      expect(state?.tracks).toEqual([{ mid: expect.any(String), participant: 'host', kind: 'video' }]);
      expect(state?.errors).toEqual([]);
    }
    // The host sends one video stream, whatever the number of viewers; viewers offered it nothing to receive.
    expect(await host.evaluate(() => window.sfuClient.videoStreamsSent())).toBe(1);
    expect((await host.evaluate(() => window.sfuState))?.tracks).toBeNull();

    // A viewer's publish offer is refused.
    const fourth = connectSignaling(server.url, await credential('viewer-tokens', { identity: 'viewer-4' }));
    try {
      await fourth.next('joined');
      fourth.send({ type: 'publish', sdp: sdp(['video', 'sendonly']) });
      expect(await fourth.next('error')).toMatchObject({ code: 'publish_not_allowed', refused: 'publish' });
    } finally {
      fourth.close();
    }

    // The host removed: its track ends at every viewer's (a new offer rejects its m-line); their sockets stay open.
    const removedAt = performance.now();
    expect((await api.delete(`/v1/live-streams/${stream.id}/hosts/host`, { token: key })).status).toBe(204);
    await Promise.all(
      viewers.map((page) =>
        eventually(
          () => page.evaluate(() => window.sfuClient.receivedTracks()),
          (tracks) => Object.values(tracks).length === 1 && Object.values(tracks).every((s) => s === 'ended'),
          10_000,
        ).catch(async (err) => {
          throw new Error(`${err.message}; ${JSON.stringify(await page.evaluate(() => window.sfuState?.errors))}`);
        }),
      ),
    );
    console.info(
      `SFU live stream: the host's track ended at all three viewers ${Math.round(performance.now() - removedAt)} ms after its removal`,
    );
    for (const page of viewers) expect((await page.evaluate(() => window.sfuState))?.closed).toBeNull();

    // The stream ended: every viewer's socket is closed with 4410.
    expect((await api.post(`/v1/live-streams/${stream.id}/end`, { token: key })).status).toBe(200);
    await Promise.all(
      viewers.map((page) =>
        eventually(
          () => page.evaluate(() => window.sfuState?.closed?.code),
          (code) => code === 4410,
          10_000,
        ),
      ),
    );
  }, 90_000);
});
