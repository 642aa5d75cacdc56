/**
 * SPIKE for issue 47 (an SFU in the server) — run by hand, not part of `npm test` or `npm run bench`:
 *
 *   npx tsx bench/sfu-spike/run.ts                 # 0, 10 then 50 subscribers, 20 s windows
 *   SFU_SUBSCRIBERS=10 SFU_WINDOW_S=30 npx tsx bench/sfu-spike/run.ts
 *   SFU_PLI_MODE=drop npx tsx bench/sfu-spike/run.ts   # keyframe requests inside the throttle dropped, not delayed
 *   SFU_UDP_PORT=40100 …  # every SFU peer connection on one UDP port (udp-mux.ts)
 *   SFU_RENEGOTIATE=1 …   # the late joiner gets audio first, its video by a renegotiation from the server
 *   SFU_PLI_AT=subscribe SFU_PLI_MODE=drop …            # …and asked for when the subscriber asks, not once connected
 *
 * What it does: forks a werift SFU (sfu.ts, a child process as `serve` would fork it); headless Chromium
 * (/usr/bin/chromium, fake camera and microphone) publishes VP8 + Opus to it; a Chromium tab joins late a few times
 * and times its first decoded frame (the SFU asks the publisher for a keyframe on every subscribe); then werift
 * subscribers in other processes (subscribers.ts, 10 per process) subscribe, and for a window the run measures:
 * packets each subscriber got of those it should have, CPU of the SFU process per forwarded packet beside the floor
 * (node:crypto SRTP AES_CM_128_HMAC_SHA1_80 of packets of the same sizes + one UDP send each, in the same SFU process
 * right after the window), one-way latency SFU-receipt → subscriber, the SFU's own fan-out time and event-loop
 * delay, this (main) process's event-loop delay, and the SFU's memory per subscriber.
 * Nothing leaves the machine: no STUN server, Chromium resolves no host name, all candidates are local.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../test/support/chromium.js';
import type {
  SfuReply,
  SfuRequest,
  SubscriberReport,
  SubscribersReply,
  SubscribersRequest,
  WindowStats,
} from './protocol.js';

const COUNTS = (process.env.SFU_SUBSCRIBERS ?? '0,10,50').split(',').map(Number);
const WINDOW_S = Number(process.env.SFU_WINDOW_S ?? 20);
const PER_PROCESS = Number(process.env.SFU_SUBSCRIBERS_PER_PROCESS ?? 10);
const LATE_JOINS = Number(process.env.SFU_LATE_JOINS ?? 3);
/** Chromium's send bitrate ramps by loss-based estimation only (werift sends no REMB, and no transport-cc): give it time. */
const RAMP_S = Number(process.env.SFU_RAMP_S ?? 20);
const RENEGOTIATE = process.env.SFU_RENEGOTIATE === '1';
const TSX_LOADER = import.meta.resolve('tsx');

/** A child process speaking protocol.ts, with request → reply by the reply's type (and id when it has one). */
class Child<Request, Reply extends { type: string }> {
  readonly process: ChildProcess;
  private waiters: { match: (reply: Reply) => boolean; resolve: (reply: Reply) => void }[] = [];

  constructor(script: string, execArgv: string[] = []) {
    this.process = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
      execArgv: ['--import', TSX_LOADER, ...execArgv],
      serialization: 'advanced',
    });
    this.process.on('message', (reply: Reply) => {
      if (reply.type === 'log') console.error((reply as unknown as { text: string }).text);
      const index = this.waiters.findIndex((waiter) => waiter.match(reply));
      if (index >= 0) this.waiters.splice(index, 1)[0].resolve(reply);
    });
  }

  next<T extends Reply>(match: (reply: Reply) => boolean): Promise<T> {
    return new Promise((resolve) => this.waiters.push({ match, resolve: resolve as (reply: Reply) => void }));
  }

  async ask<T extends Reply>(request: Request, match: (reply: Reply) => boolean): Promise<T> {
    const reply = this.next<T>(match);
    this.process.send(request as object);
    return reply;
  }

  tell(request: Request): void {
    this.process.send(request as object);
  }
}

type Sfu = Child<SfuRequest, SfuReply>;
type Subscribers = Child<SubscribersRequest, SubscribersReply>;

/** Calls a function of page.js in the page (plain JS there, so no DOM types are needed here). */
function inPage<T>(page: Page, method: string, argument?: unknown): Promise<T> {
  return page.evaluate(`window.spike.${method}(${argument === undefined ? '' : JSON.stringify(argument)})`);
}

interface PublisherStats {
  bytesSent: number;
  framesEncoded: number;
  width: number;
  height: number;
  limitation: string;
}

async function startPublisher(page: Page, sfu: Sfu): Promise<void> {
  const offer = await inPage<string>(page, 'publish');
  const { answer } = await sfu.ask<Extract<SfuReply, { type: 'answer' }>>(
    { type: 'publish', offer },
    (r) => r.type === 'answer',
  );
  await inPage(page, 'published', answer);
}

let subscriberIds = 0;
async function subscribeWerift(sfu: Sfu, host: Subscribers): Promise<void> {
  const id = `werift-${++subscriberIds}`;
  const { offer } = await sfu.ask<Extract<SfuReply, { type: 'offer' }>>(
    { type: 'subscribe', id },
    (r) => r.type === 'offer' && r.id === id,
  );
  const { answer } = await host.ask<Extract<SubscribersReply, { type: 'answer' }>>(
    { type: 'offer', id, offer },
    (r) => r.type === 'answer' && r.id === id,
  );
  sfu.tell({ type: 'answer', id, answer });
}

/** A Chromium tab subscribes; ms from asking the SFU to subscribe until connected, and until the first decoded frame. */
async function lateJoin(page: Page, sfu: Sfu): Promise<{ connectedMs: number; firstFrameMs: number }> {
  const id = `chromium-${++subscriberIds}`;
  const askedAt = performance.now();
  const { offer } = await sfu.ask<Extract<SfuReply, { type: 'offer' }>>(
    { type: 'subscribe', id, renegotiate: RENEGOTIATE },
    (r) => r.type === 'offer' && r.id === id,
  );
  const offerAt = performance.now();
  const answer = await inPage<string>(page, 'subscribe', offer);
  // With SFU_RENEGOTIATE=1 the server offers audio alone, then adds the video once connected (a second offer).
  const secondOffer = RENEGOTIATE
    ? sfu.next<Extract<SfuReply, { type: 'offer' }>>((r) => r.type === 'offer' && r.id === id)
    : undefined;
  sfu.tell({ type: 'answer', id, answer });
  if (RENEGOTIATE) {
    const { offer: again } = await (secondOffer as Promise<Extract<SfuReply, { type: 'offer' }>>);
    sfu.tell({ type: 'answer', id, answer: await inPage<string>(page, 'renegotiate', again) });
  }
  const inPageTimes = await inPage<{ connectedMs: number; firstFrameMs: number }>(page, 'firstFrame');
  const before = offerAt - askedAt;
  await inPage(page, 'unsubscribe');
  sfu.tell({ type: 'unsubscribe', id });
  return { connectedMs: before + inPageTimes.connectedMs, firstFrameMs: before + inPageTimes.firstFrameMs };
}

function fmt(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

async function main(): Promise<void> {
  const pageScript = await readFile(new URL('./page.js', import.meta.url), 'utf8');
  const site = createServer((_, response) =>
    response.end(`<!doctype html><title>sfu spike</title><script>${pageScript}</script>`),
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(site.address() as AddressInfo).port}/`;

  const sfu: Sfu = new Child('./sfu.ts', ['--expose-gc']);
  await sfu.next((r) => r.type === 'ready');
  const hosts: Subscribers[] = [];
  const browser = await launchChromium({
    args: [
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--disable-features=WebRtcHideLocalIpsWithMdns',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  try {
    const context = await browser.newOfflineContext();
    await context.context.grantPermissions(['camera', 'microphone'], { origin: url.slice(0, -1) });
    const publisherPage = await context.newPage();
    await publisherPage.goto(url);
    await startPublisher(publisherPage, sfu);
    console.log(`publisher connected; letting its bitrate ramp for ${RAMP_S} s`);
    await sleep(RAMP_S * 1000);

    const joinerPage = await context.newPage();
    await joinerPage.goto(url);
    const joins: { connectedMs: number; firstFrameMs: number }[] = [];
    for (let i = 0; i < LATE_JOINS; i++) {
      joins.push(await lateJoin(joinerPage, sfu));
      await sleep(1500);
    }
    console.log(
      `late join (Chromium tab${RENEGOTIATE ? ', video added by renegotiation' : ''}, PLI ${process.env.SFU_PLI_AT ?? 'connected'}, mode ${process.env.SFU_PLI_MODE ?? 'delay'}): ` +
        joins.map((j) => `connected ${fmt(j.connectedMs, 0)} ms, first frame ${fmt(j.firstFrameMs, 0)} ms`).join('; '),
    );

    const rows: string[] = [];
    const windows: { count: number; stats: WindowStats; floor: number }[] = [];
    let subscribed = 0;
    const memoryBase = await sfu.ask<Extract<SfuReply, { type: 'memory' }>>(
      { type: 'memory' },
      (r) => r.type === 'memory',
    );
    for (const count of COUNTS) {
      while (subscribed < count) {
        const hostIndex = Math.floor(subscribed / PER_PROCESS);
        if (!hosts[hostIndex]) {
          hosts[hostIndex] = new Child('./subscribers.ts');
          await hosts[hostIndex].next((r) => r.type === 'ready');
        }
        await subscribeWerift(sfu, hosts[hostIndex]);
        subscribed++;
      }
      // Every subscriber connected (DTLS handshakes are costly in werift), then a few seconds to settle.
      const connectStart = performance.now();
      const askMemory = () =>
        sfu.ask<Extract<SfuReply, { type: 'memory' }>>({ type: 'memory' }, (r) => r.type === 'memory');
      let memory = await askMemory();
      while (memory.connected < count && performance.now() - connectStart < 90_000) {
        await sleep(1000);
        memory = await askMemory();
      }
      console.log(
        `${memory.connected} of ${count} subscribers connected after ${fmt((performance.now() - connectStart) / 1000)} s`,
      );
      await sleep(3000);

      const mainLoop = monitorEventLoopDelay({ resolution: 1 });
      const published = await inPage<PublisherStats>(publisherPage, 'publisherStats');
      for (const host of hosts) host.tell({ type: 'window', phase: 'start' });
      sfu.tell({ type: 'window', phase: 'start' });
      mainLoop.enable();
      await sleep(WINDOW_S * 1000);
      const { stats } = await sfu.ask<Extract<SfuReply, { type: 'window' }>>(
        { type: 'window', phase: 'stop' },
        (r) => r.type === 'window',
      );
      mainLoop.disable();
      for (const host of hosts) host.tell({ type: 'window', phase: 'stop' });
      const publishedAfter = await inPage<PublisherStats>(publisherPage, 'publisherStats');
      const reports: SubscriberReport[] = [];
      let subscriberCpu = 0;
      for (const host of hosts) {
        const reply = await host.ask<Extract<SubscribersReply, { type: 'report' }>>(
          { type: 'report', videoReceiptMs: stats.videoReceiptMs },
          (r) => r.type === 'report',
        );
        reports.push(...reply.subscribers);
        subscriberCpu += reply.cpuMicros;
      }
      const floorPackets = Math.min(Math.max(stats.forwarded, 2000), 30_000);
      const floor = await sfu.ask<Extract<SfuReply, { type: 'floor' }>>(
        { type: 'floor', packets: floorPackets },
        (r) => r.type === 'floor',
      );
      windows.push({ count, stats, floor: floor.cpuMicrosPerPacket });
      rows.push(
        summarize(
          count,
          stats,
          reports,
          floor.cpuMicrosPerPacket,
          mainLoop,
          published,
          publishedAfter,
          memory,
          memoryBase,
          subscriberCpu,
        ),
      );
      console.log(rows.at(-1));
    }
    console.log('\n=== summary ===');
    for (const row of rows) console.log(row);
    for (let i = 1; i < windows.length; i++) {
      const [a, b] = [windows[i - 1], windows[i]];
      const rate = (w: (typeof windows)[number], value: number) => value / w.stats.seconds;
      const marginal =
        (rate(b, b.stats.cpuMicros) - rate(a, a.stats.cpuMicros)) /
        (rate(b, b.stats.forwarded) - rate(a, a.stats.forwarded));
      console.log(
        `marginal CPU per forwarded packet, ${a.count} → ${b.count} subscribers: ${fmt(marginal)} µs = ${fmt(marginal / b.floor, 2)}× floor (${fmt(b.floor)} µs)`,
      );
    }
  } finally {
    await browser.close();
    sfu.tell({ type: 'exit' });
    for (const host of hosts) host.tell({ type: 'exit' });
    site.close();
  }
}

function summarize(
  count: number,
  stats: WindowStats,
  reports: SubscriberReport[],
  floorMicros: number,
  mainLoop: ReturnType<typeof monitorEventLoopDelay>,
  published: PublisherStats,
  publishedAfter: PublisherStats,
  memory: { rss: number; heapUsed: number; peers: number; connected: number },
  memoryBase: { rss: number; heapUsed: number; peers: number },
  subscriberCpu: number,
): string {
  const seconds = stats.seconds;
  const kbps = ((publishedAfter.bytesSent - published.bytesSent) * 8) / seconds / 1000;
  const fps = (publishedAfter.framesEncoded - published.framesEncoded) / seconds;
  const videoShare = reports.map((r) => r.videoReceived / Math.max(1, r.videoExpected));
  const audioShare = reports.map((r) => r.audioReceived / Math.max(1, r.audioExpected));
  const coverage = reports.map((r) => r.videoReceived / Math.max(1, stats.receivedVideo));
  const perPacket = stats.cpuMicros / Math.max(1, stats.forwarded);
  const latencyP99 = Math.max(...reports.map((r) => r.latencyP99Ms).filter(Number.isFinite));
  const latencyP50 = reports.map((r) => r.latencyP50Ms).sort((a, b) => a - b)[Math.floor(reports.length / 2)];
  const mib = 1024 * 1024;
  return [
    `N=${count} subscribers (${memory.connected} connected), ${fmt(seconds)} s window; ${reports.filter((r) => r.videoReceived === 0).length} got no video ${reports
      .filter((r) => r.videoReceived === 0)
      .map((r) => `${r.id} (audio ${r.audioReceived})`)
      .join(', ')}`,
    `  publisher: ${fmt(kbps, 0)} kbps video, ${fmt(fps)} fps, ${published.width}x${published.height} (limited by: ${publishedAfter.limitation}); SFU got ${stats.receivedVideo} video + ${stats.receivedAudio} audio packets (${fmt((stats.receivedVideo + stats.receivedAudio) / seconds, 0)}/s)`,
    `  delivery: video min ${fmt(Math.min(...videoShare) * 100, 2)}% / mean ${fmt((videoShare.reduce((a, b) => a + b, 0) / videoShare.length) * 100, 2)}% of expected (seq span); audio min ${fmt(Math.min(...audioShare) * 100, 2)}%; video got/SFU-received min ${fmt(Math.min(...coverage) * 100, 2)}%`,
    `  SFU CPU: ${fmt(stats.cpuMicros / seconds / 10000)}% of a core; ${stats.forwarded} forwarded; ${fmt(perPacket)} µs/forwarded packet; floor ${fmt(floorMicros)} µs → ${fmt(perPacket / floorMicros, 2)}× floor; ≈${fmt(1e6 / perPacket / ((stats.receivedVideo + stats.receivedAudio) / seconds), 0)} down-track-equivalents (this stream) per core`,
    `  latency SFU-receipt→subscriber: p50 ${fmt(latencyP50)} ms, worst subscriber p99 ${fmt(latencyP99)} ms; SFU fan-out p50 ${fmt(stats.fanoutP50Ms, 2)} / p99 ${fmt(stats.fanoutP99Ms, 2)} ms`,
    `  event loop delay: SFU p50 ${fmt(stats.loopP50Ms)} / p99 ${fmt(stats.loopP99Ms)} / max ${fmt(stats.loopMaxMs)} ms; main p50 ${fmt(mainLoop.percentile(50) / 1e6)} / p99 ${fmt(mainLoop.percentile(99) / 1e6)} / max ${fmt(mainLoop.max / 1e6)} ms`,
    `  SFU memory: rss ${fmt(memory.rss / mib)} MiB, heap ${fmt(memory.heapUsed / mib)} MiB; per subscriber ≈ rss ${fmt((memory.rss - memoryBase.rss) / mib / Math.max(1, memory.peers - memoryBase.peers), 2)} MiB, heap ${fmt((memory.heapUsed - memoryBase.heapUsed) / mib / Math.max(1, memory.peers - memoryBase.peers), 2)} MiB`,
    `  PLIs: ${stats.plisAsked} asked, ${stats.plisSent} sent to the publisher; subscriber processes used ${fmt(subscriberCpu / seconds / 10000)}% of a core`,
  ].join('\n');
}

await main();
process.exit(0);
