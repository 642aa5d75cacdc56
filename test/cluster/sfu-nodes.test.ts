// The SFU on two `switchboard serve --rtc-media sfu` nodes (issue 47, step 7): a publisher's signaling on node A and
// a viewer's on node B, the room's media on its media home (A, the node of the first join), the viewer's media sent
// to A's UDP port; node A stopped, it hands the room over (its home given up, the viewer closed with 4503 at once, not
// when the lost-node check finds A gone) and the viewer, joining again, finds a new home. An SDK client (RtcClient)
// viewing on B beside it joins again by itself.
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AppOrigin, appPage, sdkBrowserBuild, startAppOrigin } from '../support/app-origin.js';
import { chromiumUnavailable, launchChromium, MEDIA_CHROMIUM_ARGS, type TestBrowser } from '../support/chromium.js';
import { clusterMissing } from '../support/cluster.js';
import { useClusterProject } from '../support/cluster-project.js';
import { createRoom, mintRtcToken } from '../support/factories.js';
import { client } from '../support/http.js';
import { eventually } from '../support/wait.js';

const PAGE_CLIENT = readFileSync(new URL('../browser/sfu-page-client.js', import.meta.url), 'utf8');
const SDK_PAGE = readFileSync(new URL('../browser/sfu-rtc-client-page.js', import.meta.url), 'utf8');

// The page globals the callbacks below use inside the browser (this project's TypeScript has no DOM library).
declare const window: {
  sfuClient: {
    join(options: { baseUrl: string; token: string; publish: boolean }): Promise<void>;
    framesDecoded(): Promise<{ frames: number; sinceJoinMs: number }>;
  };
  sdkCall: {
    join(options: { baseUrl: string; token: string; camera: boolean }): Promise<void>;
    figures(): Promise<Record<string, { frames: number }>>;
    reconnects: string[];
    closed: number | null;
  };
  sfuState:
    | {
        errors: { code: string }[];
        serverSdps: string[];
        closed: { code: number; reason: string; sinceJoinMs: number } | null;
      }
    | undefined;
};

const missing =
  clusterMissing(inject('postgresUrl')) ?? (chromiumUnavailable('the SFU across nodes') ? 'no Chromium' : undefined);
if (missing) console.warn(`Skipping the SFU tests across nodes: ${missing}`);

/** The UDP port of every candidate in these descriptions (the server's: one port per node). */
const candidatePorts = (sdps: string[]) =>
  new Set(
    sdps.flatMap((sdp) =>
      sdp
        .split('\r\n')
        .filter((line) => line.startsWith('a=candidate:'))
        .map((line) => Number(line.split(' ')[5])),
    ),
  );

describe.skipIf(missing !== undefined)('the SFU on two nodes', () => {
  // Each node's media process on a UDP port of its own, any free one.
  const project = useClusterProject({ nodes: 2, env: { SWITCHBOARD_RTC_MEDIA: 'sfu', SWITCHBOARD_RTC_UDP_PORT: '0' } });
  let chromium: TestBrowser;
  let app: AppOrigin;
  /** To look at the rooms' media homes. */
  let redis: Redis | undefined;
  beforeAll(async () => {
    app = await startAppOrigin({
      '/': appPage('SFU call', '/sfu-page-client.js'),
      '/sfu-page-client.js': { type: 'text/javascript', body: PAGE_CLIENT },
      '/sdk': appPage('SDK call', '/sdk-page.js'),
      '/sdk-page.js': { type: 'text/javascript', body: SDK_PAGE },
      '/sdk.js': await sdkBrowserBuild(),
    });
    chromium = await launchChromium({ args: MEDIA_CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await chromium?.close();
    await app?.close();
  });

  /** A page that joins the room with `token` on node `nodeIndex`. */
  async function joinOn(nodeIndex: number, token: string, publish: boolean): Promise<Page> {
    const context = await chromium.newOfflineContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/`);
    await page.waitForFunction(() => window.sfuClient !== undefined);
    const baseUrl = project.cluster.nodes[nodeIndex].url;
    await page.evaluate((o) => window.sfuClient.join(o), { baseUrl, token, publish });
    return page;
  }
  /** A page of the SDK's RtcClient that joins with `token` on node `nodeIndex`, receiving only. */
  async function joinSdkOn(nodeIndex: number, token: string): Promise<Page> {
    const page = await (await chromium.newOfflineContext()).newPage();
    await page.goto(`${app.url}/sdk`);
    await page.waitForFunction(() => window.sdkCall !== undefined);
    const baseUrl = project.cluster.nodes[nodeIndex].url;
    await page.evaluate((o) => window.sdkCall.join(o), { baseUrl, token, camera: false });
    return page;
  }
  /** Until the SDK page decodes more and more of the camera's video. */
  const sdkDecodes = async (page: Page) => {
    const frames = () => page.evaluate(() => window.sdkCall.figures().then((f) => f.camera?.frames ?? 0));
    const first = await eventually(frames, (n) => n > 0, 30_000);
    await eventually(frames, (n) => n > first + 5, 10_000);
  };
  const decodes = async (viewer: Page) => {
    const first = await eventually(
      () => viewer.evaluate(() => window.sfuClient.framesDecoded()),
      ({ frames }) => frames > 0,
      30_000,
    );
    await eventually(
      () => viewer.evaluate(() => window.sfuClient.framesDecoded()),
      ({ frames }) => frames > first.frames + 5,
      10_000,
    );
    return first;
  };
  /** The UDP port node `nodeIndex`'s media process said it is on. */
  const mediaPortOf = (nodeIndex: number) =>
    Number(/media on UDP port (\d+)/.exec(project.cluster.nodes[nodeIndex].output())?.[1]);

  it('forwards a publisher on node A to a viewer on node B through A, and closes B’s participants at once when A stops', async () => {
    // A node forks its media process at the first join of a room whose media it holds, and prints its port then.
    const portOf = (node: number) =>
      eventually(
        async () => mediaPortOf(node),
        (port) => port > 0,
        10_000,
      );
    const api = client(project.cluster.proxy.url);
    const room = await createRoom(api, project.key, 'sfu-nodes');
    const camera = await mintRtcToken(api, project.key, room.id, { identity: 'camera' });
    const viewer = await mintRtcToken(api, project.key, room.id, { identity: 'viewer', publish: false });

    const publisher = await joinOn(0, camera.token, true);
    await publisher.waitForFunction(() => (window.sfuState?.serverSdps.length ?? 0) > 0);
    // Read early: a node keeps the last 64 KiB of what it printed.
    const portA = await portOf(0);
    const watcher = await joinOn(1, viewer.token, false);
    const sdkToken = await mintRtcToken(api, project.key, room.id, { identity: 'sdk-viewer', publish: false });
    const sdkViewer = await joinSdkOn(1, sdkToken.token);
    const [first] = await Promise.all([decodes(watcher), sdkDecodes(sdkViewer)]);
    console.info(`SFU across nodes: first frame decoded ${Math.round(first.sinceJoinMs)} ms after the viewer joined`);

    // Both pages' media goes to node A's media process, the room's home: no other port is in any description, and
    // node B started no media process of its own.
    expect(mediaPortOf(1)).toBeNaN();
    const viewerState = await watcher.evaluate(() => window.sfuState);
    const publisherState = await publisher.evaluate(() => window.sfuState);
    expect(candidatePorts(viewerState?.serverSdps ?? [])).toEqual(new Set([portA]));
    expect(candidatePorts(publisherState?.serverSdps ?? [])).toEqual(new Set([portA]));
    expect([...(viewerState?.errors ?? []), ...(publisherState?.errors ?? [])]).toEqual([]);

    // Node A stops cleanly: before its media process stops it gives up the room's home and tells B, which closes the
    // viewer with 4503 then: the reason says "stopped" (the lost-node check, two checks 3 s apart, says "was lost"), and
    // the home is already gone from Redis (A deleted it before telling B).
    const homes = new Redis(project.cluster.redis.url);
    redis = homes;
    const homeKey = `switchboard:rtc:media-home:${room.id}`;
    expect(await homes.exists(homeKey)).toBe(1);
    const stoppedAt = Date.now();
    const stopping = project.cluster.nodes[0].kill('SIGTERM');
    const closed = await eventually(
      () => watcher.evaluate(() => window.sfuState?.closed),
      (state) => state !== null && state !== undefined,
      30_000,
    );
    const closedAfter = Date.now() - stoppedAt;
    expect(closed).toMatchObject({ code: 4503, reason: expect.stringContaining('stopped') });
    expect(await homes.exists(homeKey)).toBe(0);
    console.info(`SFU across nodes: the viewer closed with 4503 ${closedAfter} ms after node A was sent SIGTERM`);
    await stopping;

    // Joining again (both on B now), the room's media finds its new home there.
    const apiB = client(project.cluster.nodes[1].url);
    const cameraAgain = await mintRtcToken(apiB, project.key, room.id, { identity: 'camera' });
    const publisherAgain = await joinOn(1, cameraAgain.token, true);
    await publisherAgain.waitForFunction(() => (window.sfuState?.serverSdps.length ?? 0) > 0);
    const portB = await portOf(1);
    expect(portB).not.toBe(portA);
    const watcherAgain = await joinOn(1, viewer.token, false);
    await decodes(watcherAgain);
    const again = await watcherAgain.evaluate(() => window.sfuState);
    expect(candidatePorts(again?.serverSdps ?? [])).toEqual(new Set([portB]));
    // The SDK's client joined again by itself with its token, and receives the camera from its new home.
    await sdkDecodes(sdkViewer);
    expect(await sdkViewer.evaluate(() => window.sdkCall.reconnects)).toEqual([
      'reconnecting media_home_lost',
      'reconnected media_home_lost',
    ]);
    expect(await sdkViewer.evaluate(() => window.sdkCall.closed)).toBeNull();

    // Everyone gone, the room has no home left in Redis: the next join chooses again.
    expect(await homes.exists(homeKey)).toBe(1);
    await publisherAgain.context().close();
    await watcherAgain.context().close();
    await sdkViewer.context().close();
    await eventually(
      () => homes.exists(homeKey),
      (exists) => exists === 0,
      10_000,
    );
  }, 120_000);
});
