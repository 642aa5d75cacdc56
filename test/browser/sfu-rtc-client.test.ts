/**
 * The SDK's RtcClient against a server running the SFU (`rtc.media: 'sfu'`): the same app code as on the mesh, its
 * media through the server. Chromium with its fake camera and microphone, one server for the file.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppOrigin, appPage, sdkBrowserBuild, startAppOrigin } from '../support/app-origin.js';
import { chromiumUnavailable, launchChromium, MEDIA_CHROMIUM_ARGS, type TestBrowser } from '../support/chromium.js';
import { createLiveStream, createRoom, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { childProcesses } from '../support/processes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { connectSignaling } from '../support/socket-client.js';
import { eventually } from '../support/wait.js';

const PAGE_SCRIPT = readFileSync(new URL('./sfu-rtc-client-page.js', import.meta.url), 'utf8');

interface ReceivedTrack {
  identity: string;
  kind: string;
  readyState: string;
  stream: string | null;
}
type Figures = Record<string, { frames: number; audioPackets: number }>;
// The page globals the callbacks below use inside the browser (this project's TypeScript has no DOM library).
declare const window: {
  sdkCall: {
    join(options: { baseUrl: string; token: string; camera: boolean }): Promise<void>;
    tracks(): ReceivedTrack[];
    figures(): Promise<Figures>;
    leave(): void;
    errors: { code: string }[];
    states: Record<string, string>;
    reconnects: string[];
  };
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

describe.skipIf(chromiumUnavailable('the SDK’s SFU browser test'))('RtcClient with media through the server', () => {
  beforeAll(async () => {
    app = await startAppOrigin({
      '/': appPage('SDK call', '/page.js'),
      '/page.js': { type: 'text/javascript', body: PAGE_SCRIPT },
      '/sdk.js': await sdkBrowserBuild(),
    });
    chromium = await launchChromium({ args: MEDIA_CHROMIUM_ARGS });
  }, 60_000);

  const blocked: string[][] = [];
  /** The types of the frames every page sent on its signaling socket. */
  const sent: string[] = [];
  async function joinPage(token: string, camera: boolean): Promise<Page> {
    const context = await chromium.newOfflineContext();
    blocked.push(context.blocked);
    const page = await context.newPage();
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => sent.push(JSON.parse(String(payload)).type)),
    );
    await page.goto(`${app.url}/`);
    await page.waitForFunction(() => window.sdkCall !== undefined);
    await page.evaluate((o) => window.sdkCall.join(o), { baseUrl: server.url, token, camera });
    return page;
  }
  const figures = (page: Page) => page.evaluate(() => window.sdkCall.figures());
  const tracks = (page: Page) => page.evaluate(() => window.sdkCall.tracks());
  /** Until `page` decodes video from each of `from`, more and more of it. */
  async function decodes(page: Page, from: string[]): Promise<void> {
    const first = await eventually(
      () => figures(page),
      (f) => from.every((identity) => (f[identity]?.frames ?? 0) > 0),
      20_000,
    );
    await eventually(
      () => figures(page),
      (f) => from.every((identity) => f[identity].frames > first[identity].frames + 5),
      10_000,
    );
  }

  it('two hosts decode each other, a viewer joining later both, and a host leaving ends its tracks', async () => {
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const key = keys.development;
    const stream = await createLiveStream(api, key, 'SDK through the SFU');
    expect((await api.post(`/v1/live-streams/${stream.id}/start`, { token: key })).status).toBe(200);
    const credential = async (path: string, body: object) => {
      const res = await api.post(`/v1/live-streams/${stream.id}/${path}`, { token: key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (res.body as { rtc: { token: string } }).rtc.token;
    };

    // The server says which media it runs.
    const probe = connectSignaling(server.url, await credential('viewer-tokens', { identity: 'probe' }));
    expect(await probe.next('joined')).toMatchObject({ media: 'sfu', iceServers: [] });
    probe.close();

    const alice = await joinPage(await credential('hosts', { identity: 'alice', role: 'HOST' }), true);
    const bob = await joinPage(await credential('hosts', { identity: 'bob', role: 'CO_HOST' }), true);
    await Promise.all([decodes(alice, ['bob']), decodes(bob, ['alice'])]);
    await eventually(
      () => figures(alice),
      (f) => f.bob.audioPackets > 0,
      10_000,
    );
    // Each participant's audio and video in one stream, as the mesh hands them out.
    const fromBob = (await tracks(alice)).filter(({ identity }) => identity === 'bob');
    expect(fromBob.map(({ kind }) => kind).sort()).toEqual(['audio', 'video']);
    expect(new Set(fromBob.map(({ stream }) => stream)).size).toBe(1);
    expect(fromBob[0].stream).not.toBeNull();
    expect(await alice.evaluate(() => window.sdkCall.states.bob)).toBe('connected');

    // A viewer joins later with a camera: it receives both hosts, and its client publishes nothing (no refusal).
    const carol = await joinPage(await credential('viewer-tokens', { identity: 'carol' }), true);
    await decodes(carol, ['alice', 'bob']);
    expect((await tracks(alice)).filter(({ identity }) => identity === 'carol')).toEqual([]);

    // Bob leaves: his tracks end at alice's and carol's; alice's go on at carol's.
    await bob.evaluate(() => window.sdkCall.leave());
    for (const page of [alice, carol])
      await eventually(
        () => tracks(page),
        (received) => received.filter(({ identity }) => identity === 'bob').every((t) => t.readyState === 'ended'),
        10_000,
      );
    const atCarol = await tracks(carol);
    expect(atCarol.filter(({ identity }) => identity === 'alice').map(({ readyState }) => readyState)).toEqual([
      'live',
      'live',
    ]);
    expect(Object.keys(await figures(carol))).toEqual(['alice']);
    await decodes(carol, ['alice']);

    for (const page of [alice, bob, carol]) expect(await page.evaluate(() => window.sdkCall.errors)).toEqual([]);
    // Media went through the server only: two publish offers (the hosts'), and no offer to a peer.
    expect(sent.filter((type) => type === 'publish')).toHaveLength(2);
    expect(sent).toContain('subscribe_answer');
    expect(sent.filter((type) => ['offer', 'answer', 'ice'].includes(type))).toEqual([]);
    expect(blocked.flat()).toEqual([]);
  }, 90_000);

  it('publishes and subscribes again by itself when the media process dies (media_reset)', async () => {
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const key = keys.development;
    const room = await createRoom(api, key, 'SDK media reset');
    const token = async (identity: string) => (await mintRtcToken(api, key, room.id, { identity })).token;
    const dave = await joinPage(await token('dave'), true);
    const erin = await joinPage(await token('erin'), true);
    await Promise.all([decodes(dave, ['erin']), decodes(erin, ['dave'])]);

    const [media] = childProcesses().filter(({ command }) => command.includes('server/media/main.ts'));
    process.kill(media.pid, 'SIGKILL');
    // Nothing done by the app: each client is told, closes both connections and sets them up again.
    for (const page of [dave, erin])
      await eventually(
        () => page.evaluate(() => window.sdkCall.reconnects),
        (reconnects) => reconnects.includes('reconnected media_reset'),
        20_000,
      );
    await Promise.all([decodes(dave, ['erin']), decodes(erin, ['dave'])]);
    for (const [page, other] of [
      [dave, 'erin'],
      [erin, 'dave'],
    ] as const) {
      expect(await page.evaluate(() => window.sdkCall.reconnects)).toEqual([
        'reconnecting media_reset',
        'reconnected media_reset',
      ]);
      // The other's first tracks ended with the old connection; new ones came as `track` events.
      const received = (await tracks(page)).filter(({ identity }) => identity === other);
      expect(received.map(({ kind, readyState }) => `${kind} ${readyState}`).sort()).toEqual([
        'audio ended',
        'audio live',
        'video ended',
        'video live',
      ]);
      expect(await page.evaluate((identity) => window.sdkCall.states[identity], other)).toBe('connected');
    }
  }, 90_000);
});
