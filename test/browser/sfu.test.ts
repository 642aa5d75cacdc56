import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppOrigin, appPage, startAppOrigin } from '../support/app-origin.js';
import { chromiumUnavailable, launchChromium, MEDIA_CHROMIUM_ARGS, type TestBrowser } from '../support/chromium.js';
import { createRoom, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { childProcesses } from '../support/processes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { connectSignaling, sdp } from '../support/socket-client.js';
import { eventually } from '../support/wait.js';

const PAGE_CLIENT = readFileSync(new URL('./sfu-page-client.js', import.meta.url), 'utf8');

// The page globals the callbacks below use inside the browser (this project's TypeScript has no DOM library).
interface SfuState {
  joined: unknown;
  errors: { code: string; message: string }[];
  serverSdps: string[];
  tracks: { mid: string; participant: string; kind: string }[] | null;
  subscribeOffers: number;
}
declare const window: {
  sfuClient: {
    join(options: { baseUrl: string; token: string; publish: boolean }): Promise<void>;
    framesDecoded(): Promise<{ frames: number; sinceJoinMs: number }>;
    framesByMid(): Promise<{ frames: Record<string, number>; sinceJoinMs: number }>;
    receivedTracks(): Record<string, string>;
    addMicrophone(): Promise<void>;
    packetsByMid(): Promise<Record<string, number>>;
  };
  sfuState: SfuState | undefined;
};

/** The server's media processes: children of this test process (the server runs in it) running the media entry. */
const mediaProcesses = () => childProcesses().filter(({ command }) => command.includes('server/media/main.ts'));

/** The server's log lines (info and up). */
const logged: { msg: string; udpPort?: number }[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk, _encoding, done) {
      logged.push(JSON.parse(String(chunk)));
      done();
    },
  }),
);

let server: TestServer;
beforeAll(async () => {
  // rtc.udpPort left out: a port the system picks.
  server = await startTestServer({ rtc: { media: 'sfu' }, logger });
});
afterAll(async () => {
  await server?.dispose();
});

describe.skipIf(chromiumUnavailable('the SFU browser test'))('media through the server (rtc.media sfu)', () => {
  let chromium: TestBrowser;
  let app: AppOrigin;
  beforeAll(async () => {
    app = await startAppOrigin({
      '/': appPage('SFU call', '/sfu-page-client.js'),
      '/sfu-page-client.js': { type: 'text/javascript', body: PAGE_CLIENT },
    });
    chromium = await launchChromium({
      args: MEDIA_CHROMIUM_ARGS,
    });
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    await app?.close();
  });

  async function openPage(): Promise<{ page: Page; blocked: string[] }> {
    const context = await chromium.newOfflineContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/`);
    await page.waitForFunction(() => window.sfuClient !== undefined);
    return { page, blocked: context.blocked };
  }

  it('forwards a publisher’s camera to a subscriber, over loopback and host candidates only', async () => {
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const room = await createRoom(api, keys.development, 'sfu-call');
    const camera = await mintRtcToken(api, keys.development, room.id, { identity: 'camera' });
    const viewer = await mintRtcToken(api, keys.development, room.id, { identity: 'viewer', publish: false });

    const publisher = await openPage();
    await publisher.page.evaluate((o) => window.sfuClient.join(o), {
      baseUrl: server.url,
      token: camera.token,
      publish: true,
    });
    await publisher.page.waitForFunction(() => (window.sfuState?.serverSdps.length ?? 0) > 0);
    const subscriber = await openPage();
    await subscriber.page.evaluate((o) => window.sfuClient.join(o), {
      baseUrl: server.url,
      token: viewer.token,
      publish: false,
    });

    // The viewer decodes the camera's frames, more and more of them.
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
    console.info(`SFU: first frame decoded ${Math.round(first.sinceJoinMs)} ms after the viewer joined`);
    const viewerState = await subscriber.page.evaluate(() => window.sfuState);
    expect(viewerState?.tracks).toEqual([{ mid: expect.any(String), participant: 'camera', kind: 'video' }]);
    expect(viewerState?.errors).toEqual([]);
    // The publisher, alone when it published, is offered nothing to receive.
    const publisherState = await publisher.page.evaluate(() => window.sfuState);
    expect(publisherState?.serverSdps).toHaveLength(1);
    expect(publisherState?.errors).toEqual([]);

    // The server's descriptions carry host candidates only (no STUN server was asked for a reflexive address),
    // loopback among them; the pages reached nothing off the machine.
    const candidates = [...(publisherState?.serverSdps ?? []), ...(viewerState?.serverSdps ?? [])].flatMap((sdp) =>
      sdp.split('\r\n').filter((line) => line.startsWith('a=candidate:')),
    );
    expect(candidates.length).toBeGreaterThan(0);
    for (const candidate of candidates) expect(candidate).toMatch(/ typ host( |$)/);
    expect(candidates.some((candidate) => / 127\.0\.0\.1 /.test(candidate))).toBe(true);
    // Every one of them on the media process's one UDP port, the port it said it was on.
    const ports = new Set(candidates.map((candidate) => candidate.split(' ')[5]));
    expect(ports.size).toBe(1);
    expect(logged.filter(({ udpPort }) => udpPort !== undefined).map(({ udpPort }) => String(udpPort))).toEqual([
      ...ports,
    ]);
    expect([...publisher.blocked, ...subscriber.blocked]).toEqual([]);

    // Renegotiation: a second camera joins, and the viewer's one subscribe connection gets it by a new offer …
    const second = await openPage();
    const cameraTwo = await mintRtcToken(api, keys.development, room.id, { identity: 'camera-2' });
    await second.page.evaluate((o) => window.sfuClient.join(o), {
      baseUrl: server.url,
      token: cameraTwo.token,
      publish: true,
    });
    const withTwo = await eventually(
      () => subscriber.page.evaluate(() => window.sfuState),
      (state) => state?.tracks?.length === 2,
      20_000,
    );
    expect(withTwo?.tracks).toEqual([
      { mid: viewerState?.tracks?.[0].mid, participant: 'camera', kind: 'video' },
      { mid: expect.any(String), participant: 'camera-2', kind: 'video' },
    ]);
    const [firstMid, secondMid] = (withTwo?.tracks ?? []).map(({ mid }) => mid);
    await eventually(
      () => subscriber.page.evaluate(() => window.sfuClient.framesByMid()),
      ({ frames }) => (frames[secondMid] ?? 0) > 5,
      20_000,
    );
    // It offers its microphone too, on the same publish connection: the viewer gets it by another offer …
    await second.page.evaluate(() => window.sfuClient.addMicrophone());
    const withMicrophone = await eventually(
      () => subscriber.page.evaluate(() => window.sfuState),
      (state) => state?.tracks?.length === 3,
      20_000,
    );
    expect(withMicrophone?.tracks?.slice(0, 2)).toEqual(withTwo?.tracks);
    const audioMid = withMicrophone?.tracks?.[2].mid ?? '';
    expect(withMicrophone?.tracks?.[2]).toEqual({ mid: audioMid, participant: 'camera-2', kind: 'audio' });
    await eventually(
      () => subscriber.page.evaluate(() => window.sfuClient.packetsByMid()),
      (packets) => (packets[audioMid] ?? 0) > 10,
      20_000,
    );
    // … and when it leaves, its tracks end at the viewer's, while the first camera's goes on.
    await second.page.context().close();
    const ended = await eventually(
      () => subscriber.page.evaluate(() => window.sfuClient.receivedTracks()),
      (tracks) => tracks[secondMid] === 'ended' && tracks[audioMid] === 'ended',
      20_000,
    );
    expect(ended[firstMid]).toBe('live');
    const before = await subscriber.page.evaluate(() => window.sfuClient.framesByMid());
    await eventually(
      () => subscriber.page.evaluate(() => window.sfuClient.framesByMid()),
      ({ frames }) => frames[firstMid] > before.frames[firstMid] + 5,
      10_000,
    );
    const afterLeaving = await subscriber.page.evaluate(() => window.sfuState);
    expect(afterLeaving?.tracks).toEqual([{ mid: firstMid, participant: 'camera', kind: 'video' }]);
    expect(afterLeaving?.errors).toEqual([]);
  }, 90_000);
});

describe('the media process', () => {
  it('refuses a publish the token does not allow, and says when it cannot take an offer', async () => {
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const room = await createRoom(api, keys.development, 'sfu-refusals');
    const viewer = await mintRtcToken(api, keys.development, room.id, { identity: 'viewer', publish: false });
    const host = await mintRtcToken(api, keys.development, room.id, { identity: 'host' });
    const [viewerSocket, hostSocket] = [
      connectSignaling(server.url, viewer.token),
      connectSignaling(server.url, host.token),
    ];
    try {
      await viewerSocket.next('joined');
      viewerSocket.send({ type: 'publish', sdp: sdp(['video', 'sendonly']) });
      expect(await viewerSocket.next('error')).toMatchObject({ code: 'publish_not_allowed', refused: 'publish' });
      // Not a description werift can take: the media process answers with a failure, and the socket stays open.
      await hostSocket.next('joined');
      hostSocket.send({ type: 'publish', sdp: 'v=0' });
      expect(await hostSocket.next('error', 10_000)).toMatchObject({ code: 'media_failed', refused: 'publish' });
      hostSocket.send({ type: 'ping' });
      await hostSocket.next('pong');
    } finally {
      viewerSocket.close();
      hostSocket.close();
    }
  }, 20_000);

  it('fails the start of a server whose UDP port is in use, naming it', async () => {
    const holder = createSocket('udp4');
    holder.bind(0, '0.0.0.0');
    await once(holder, 'listening');
    const { port } = holder.address();
    try {
      await expect(startTestServer({ rtc: { media: 'sfu', udpPort: port } })).rejects.toThrow(
        `UDP port ${port} on 0.0.0.0 for media is already in use`,
      );
    } finally {
      holder.close();
    }
  });

  it('is started again when it dies, and close() leaves none behind', async () => {
    // The media process starts with the first join of a room.
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const room = await createRoom(api, keys.development, 'sfu-restart');
    const participant = connectSignaling(server.url, (await mintRtcToken(api, keys.development, room.id)).token);
    await participant.next('joined');
    const [first] = await eventually(
      async () => mediaProcesses(),
      (found) => found.length === 1,
      10_000,
    );
    process.kill(first.pid, 'SIGKILL');
    const [second] = await eventually(
      async () => mediaProcesses(),
      (found) => found.length === 1 && found[0].pid !== first.pid,
      10_000,
    );
    expect(second.pid).not.toBe(first.pid);

    await server.close();
    expect(mediaProcesses()).toEqual([]);
  }, 30_000);
});
