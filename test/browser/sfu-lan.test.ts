/**
 * The SFU's default addresses on a LAN: a Chromium publisher and viewer that reach the server's media port by this
 * machine's non-loopback address only, as clients on another machine of the LAN would (each page keeps only that
 * address's candidates, its own and the server's), connect and decode. The server runs with its defaults: no
 * announced address, no ICE server. Signaling stays on loopback (the test's pages reach nothing else by HTTP).
 */
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
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
interface StatsReport {
  type: string;
  nominated?: boolean;
  state?: string;
  remoteCandidateId?: string;
  id: string;
  address?: string;
  candidateType?: string;
}
declare const window: {
  sfuClient: {
    join(options: { baseUrl: string; token: string; publish: boolean; address: string }): Promise<void>;
    framesDecoded(): Promise<{ frames: number; sinceJoinMs: number }>;
    subscriber?: { getStats(): Promise<{ values(): Iterable<StatsReport> }> };
  };
  sfuState: { serverSdps: string[]; errors: unknown[] } | undefined;
};

/** This machine's first non-loopback IPv4 address (what `hostname -I` lists first), if it has one. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((info) => info?.family === 'IPv4' && !info.internal)?.address;

function noLanAddress(): boolean {
  if (lanAddress) return false;
  console.warn('Skipping the SFU LAN test: this machine has no non-loopback IPv4 address.');
  return true;
}

describe.skipIf(chromiumUnavailable('the SFU LAN test') || noLanAddress())('the SFU on a LAN (its defaults)', () => {
  let server: TestServer;
  let chromium: TestBrowser;
  let app: AppOrigin;
  beforeAll(async () => {
    server = await startTestServer({ rtc: { media: 'sfu' } });
    app = await startAppOrigin({
      '/': appPage('SFU on a LAN', '/sfu-page-client.js'),
      '/sfu-page-client.js': { type: 'text/javascript', body: PAGE_CLIENT },
    });
    chromium = await launchChromium({ args: MEDIA_CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    await app?.close();
    await server?.dispose();
  });

  async function openPage(): Promise<{ page: Page; blocked: string[] }> {
    const context = await chromium.newOfflineContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/`);
    await page.waitForFunction(() => window.sfuClient !== undefined);
    return { page, blocked: context.blocked };
  }

  it('connects a viewer to the server’s LAN address and decodes the publisher’s camera', async () => {
    const address = lanAddress as string;
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const room = await createRoom(api, keys.development, 'sfu-lan');
    const camera = await mintRtcToken(api, keys.development, room.id, { identity: 'camera' });
    const viewer = await mintRtcToken(api, keys.development, room.id, { identity: 'viewer', publish: false });

    const publisher = await openPage();
    await publisher.page.evaluate((o) => window.sfuClient.join(o), {
      baseUrl: server.url,
      token: camera.token,
      publish: true,
      address,
    });
    await publisher.page.waitForFunction(() => (window.sfuState?.serverSdps.length ?? 0) > 0);
    const subscriber = await openPage();
    await subscriber.page.evaluate((o) => window.sfuClient.join(o), {
      baseUrl: server.url,
      token: viewer.token,
      publish: false,
      address,
    });
    const first = await eventually(
      () => subscriber.page.evaluate(() => window.sfuClient.framesDecoded()),
      ({ frames }) => frames > 0,
      20_000,
    );
    await eventually(
      () => subscriber.page.evaluate(() => window.sfuClient.framesDecoded()),
      ({ frames }) => frames > first.frames + 5,
      10_000,
    );
    console.info(`SFU on ${address}: first frame decoded ${Math.round(first.sinceJoinMs)} ms after the viewer joined`);

    // By default the server announces its interfaces' addresses and loopback: the LAN address among them.
    const serverSdps = (await subscriber.page.evaluate(() => window.sfuState?.serverSdps)) ?? [];
    const announced = serverSdps.flatMap((sdp) =>
      sdp
        .split('\r\n')
        .filter((line) => line.startsWith('a=candidate:'))
        .map((line) => line.split(' ')[4]),
    );
    expect(announced).toContain(address);
    expect(announced).toContain('127.0.0.1');
    // The viewer's media comes from the server's LAN address (the only server candidate the page kept), unless the
    // server's end of the pair was learnt from its checks (peer-reflexive), whose address Chromium hides ('').
    const pair = await subscriber.page.evaluate(async () => {
      const reports = [...((await window.sfuClient.subscriber?.getStats())?.values() ?? [])];
      const nominated = reports.find((r) => r.type === 'candidate-pair' && r.nominated && r.state === 'succeeded');
      const end = (id: string | undefined) => {
        const candidate = reports.find((r) => r.id === id);
        return { address: candidate?.address, type: candidate?.candidateType };
      };
      return { remote: end(nominated?.remoteCandidateId) };
    });
    expect(['host', 'prflx']).toContain(pair.remote.type);
    if (pair.remote.type === 'host') expect(pair.remote.address).toBe(address);
    expect(await subscriber.page.evaluate(() => window.sfuState?.errors)).toEqual([]);
    expect([...publisher.blocked, ...subscriber.blocked]).toEqual([]);
  }, 60_000);
});
