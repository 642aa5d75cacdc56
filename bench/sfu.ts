/**
 * `BENCH_ONLY=sfu npm run bench`: media through the server (issue 47), measured on the real server. One Switchboard
 * with `rtc.media: 'sfu'` (bench/servers.ts `switchboard-sfu`, its media process forked as `serve` does); one publisher
 * (bench/sfu/publisher.ts: a werift client in its own process publishing ≈1 Mbps of VP8-sized video and Opus-sized
 * audio through `/v1/rtc` with an RTC token, a keyframe first and on each keyframe request); then BENCH_SFU_SUBSCRIBERS
 * (10, then 50) werift subscribers spread over a few processes (bench/sfu/subscribers.ts), so that their CPU is not
 * the media process's. For each count, a window of BENCH_SFU_WINDOW seconds measures:
 *
 * - the packets each subscriber received of those published in the window (by the index each payload carries);
 * - the media process's CPU time (/proc, bench/sfu/proc-stats.ts) per forwarded packet, against the floor: node:crypto
 *   SRTP protection of packets of the same sizes plus one UDP send each (bench/sfu/floor.ts, in the same run), and
 *   what it means in 1 Mbps video down-tracks per core;
 * - one-way latency from the publisher's send to a subscriber's receipt (one monotonic clock), p50 and p99;
 * - the media process's resident memory per subscriber.
 *
 * Then, with the most subscribers: a key-authenticated GET's p99 while media flows against the same before any media
 * (paced, one request at a time), and late joiners' first keyframe (from opening the socket). Goals from issue 47:
 * ≥ 99% received, ≤ 3× the floor, ≥ 100 down-tracks per core, p99 ≤ 20 ms at 50, GET p99 ≤ 1.5× idle, first
 * keyframe ≤ 1 s. Information, not a test: it fails only when it cannot run.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type ServerProcess, spawnServer, TSX_IMPORT, trackChild } from './child.js';
import type { BenchConfig } from './config.js';
import { formatColumns, percentile } from './report.js';
import { call, createCredentials } from './setup.js';
import type { FloorReply, FloorRequest } from './sfu/floor.js';
import { childrenOf, commandOf, cpuMicrosOf, rssOf } from './sfu/proc-stats.js';
import type {
  LateJoin,
  PublisherMark,
  PublisherReply,
  PublisherRequest,
  SubscriberCounts,
  SubscribersReply,
  SubscribersRequest,
} from './sfu/protocol.js';

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** Subscribers per subscriber process. */
const PER_PROCESS = 10;
/**
 * Joins in flight at once. werift's ICE and DTLS handshakes run on the media process's loop: with more at a time on
 * this loaded machine (load 15–20), some connections failed, and the first packets of the others came late.
 */
const JOIN_CONCURRENCY = 2;
/** After the joins, before a window: the keyframe storm of the joins passes. */
const SETTLE_MS = 2000;
/** After a window: the last packets published in it arrive (or are retransmitted). */
const DRAIN_MS = 1000;
const LATE_JOINS = 3;
/** Key-authenticated GETs timed, one at a time, at this rate; after as many unmeasured ones. */
const GETS = 1000;
const GETS_PER_SECOND = 200;

const GOALS = { received: 0.99, floorRatio: 3, downTracksPerCore: 100, p99Ms: 20, getRatio: 1.5, firstFrameMs: 1000 };

/** A benchmark process speaking bench/sfu/protocol.ts: each request answered by the reply of its type, or `failed`. */
class BenchProcess<Request extends { type: string }, Reply extends { type: string }> {
  private constructor(private readonly child: ChildProcess) {}

  static async start<Request extends { type: string }, Reply extends { type: string }>(
    script: string,
  ): Promise<BenchProcess<Request, Reply>> {
    const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
      execArgv: ['--import', TSX_IMPORT],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    trackChild(child);
    const started = new BenchProcess<Request, Reply>(child);
    await started.reply('ready');
    return started;
  }

  private reply<R>(type: string): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const onMessage = (message: { type: string; message?: string }) => {
        if (message.type !== type && message.type !== 'failed') return;
        settle();
        if (message.type === 'failed') reject(new Error(message.message));
        else resolve(message as R);
      };
      const onExit = (code: number | null) => {
        settle();
        reject(new Error(`a benchmark process exited (code ${code}) before its ${type}`));
      };
      const settle = () => this.child.off('message', onMessage).off('exit', onExit);
      this.child.on('message', onMessage).once('exit', onExit);
    });
  }

  /** Sends the request; resolves with the reply of its type. */
  ask<T extends Request['type']>(message: Extract<Request, { type: T }>): Promise<Extract<Reply, { type: T }>> {
    const answered = this.reply<Extract<Reply, { type: T }>>(message.type);
    this.child.send(message);
    return answered;
  }

  stop(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

type Publisher = BenchProcess<PublisherRequest, PublisherReply>;
type SubscriberHost = BenchProcess<SubscribersRequest, SubscribersReply>;

/** The server's media process: the child of the server process that runs server/media/main.ts. */
async function findMediaProcess(serverPid: number): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const media = childrenOf(serverPid).find((pid) => commandOf(pid).includes('media'));
    if (media !== undefined) return media;
    await sleep(100);
  }
  throw new Error('the server started no media process within 10 s');
}

/** Key-authenticated GETs, one at a time at most GETS_PER_SECOND: their latencies, sorted (ms). */
async function timeGets(url: string, apiKey: string): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<number>((resolve, reject) => {
      const startedAt = performance.now();
      request(`${url}/v1/whoami`, { agent, headers: { authorization: `Bearer ${apiKey}` } }, (response) => {
        response.resume();
        response.once('end', () =>
          response.statusCode === 200
            ? resolve(performance.now() - startedAt)
            : reject(new Error(`GET /v1/whoami answered ${response.statusCode}`)),
        );
      })
        .once('error', reject)
        .end();
    });
  const timed: number[] = [];
  const startedAt = performance.now();
  for (let i = 0; i < 2 * GETS; i++) {
    const due = startedAt + (i * 1000) / GETS_PER_SECOND - performance.now();
    if (due > 0) await sleep(due);
    const ms = await get();
    if (i >= GETS) timed.push(ms);
  }
  agent.destroy();
  return timed.sort((a, b) => a - b);
}

interface Window {
  subscribers: number;
  seconds: number;
  start: PublisherMark;
  end: PublisherMark;
  counts: SubscriberCounts[];
  latencies: number[];
  mediaCpuMicros: number;
  subscriberCpuMicros: number;
  /** The media process's resident memory before the window (every subscriber joined). */
  rss: number;
  joinSeconds: number;
  /** Joins that failed (ICE or DTLS under load) and were tried again, and those given up (not in the window). */
  joinRetries: number;
  failedJoins: number;
}

async function measureWindow(
  subscribers: number,
  windowSeconds: number,
  mediaPid: number,
  publisher: Publisher,
  hosts: SubscriberHost[],
): Promise<Omit<Window, 'rss' | 'joinSeconds' | 'joinRetries' | 'failedJoins'>> {
  await Promise.all(hosts.map((host) => host.ask({ type: 'record' })));
  const { mark: start } = await publisher.ask({ type: 'mark' });
  const cpuBefore = cpuMicrosOf(mediaPid);
  await sleep(windowSeconds * 1000);
  const { mark: end } = await publisher.ask({ type: 'mark' });
  const mediaCpuMicros = cpuMicrosOf(mediaPid) - cpuBefore;
  await sleep(DRAIN_MS);
  const reports = await Promise.all(
    hosts.map((host) => host.ask({ type: 'report', from: start.nextIndex, to: end.nextIndex })),
  );
  return {
    subscribers,
    seconds: (end.at - start.at) / 1000,
    start,
    end,
    counts: reports.flatMap((r) => r.subscribers),
    latencies: reports.flatMap((r) => [...r.latenciesMs]).sort((a, b) => a - b),
    mediaCpuMicros,
    subscriberCpuMicros: reports.reduce((sum, r) => sum + r.cpuMicros, 0),
  };
}

/** The floor, in a process of its own: µs of CPU per packet of these sizes protected as SRTP and sent once. */
async function measureFloor(sizes: number[], packets: number): Promise<number> {
  const floor = await BenchProcess.start<FloorRequest, FloorReply>('./sfu/floor.ts');
  try {
    return (await floor.ask({ type: 'floor', packets, sizes })).cpuMicrosPerPacket;
  } finally {
    floor.stop();
  }
}

export async function runSfuBench(config: BenchConfig): Promise<void> {
  const counts = config.sfuSubscribers;
  const hostCount = Math.ceil(Math.max(...counts) / PER_PROCESS);
  progress(
    `SFU: one publisher to ${counts.join(', then ')} subscribers (${hostCount} subscriber processes), ` +
      `${config.sfuWindow} s windows; load average ${loadavg()[0].toFixed(1)}.`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-sfu-'));
  const processes: BenchProcess<{ type: string }, { type: string }>[] = [];
  let server: ServerProcess | undefined;
  try {
    server = await spawnServer('switchboard-sfu', [dataDir], config.cpuProfDir);
    const { url } = server;
    const { apiKey } = await createCredentials(url);
    const room = await call<{ id: string }>(url, 'POST', '/v1/rooms', { name: 'bench-sfu' }, apiKey);
    const mint = async (identity: string, publish: boolean) =>
      (await call<{ token: string }>(url, 'POST', `/v1/rooms/${room.id}/rtc-tokens`, { identity, publish }, apiKey))
        .token;

    progress(`  timing ${GETS} key-authenticated GETs before any media …`);
    const idleGets = await timeGets(url, apiKey);

    const publisher: Publisher = await BenchProcess.start('./sfu/publisher.ts');
    processes.push(publisher);
    await publisher.ask({ type: 'publish', url, token: await mint('publisher', true) });
    // The media pool starts a process with a room's first join (server/media/media-pool.ts).
    const mediaPid = await findMediaProcess(server.pid);
    await sleep(SETTLE_MS);
    const rssBase = rssOf(mediaPid);
    const hosts: SubscriberHost[] = await Promise.all(
      Array.from({ length: hostCount }, () =>
        BenchProcess.start<SubscribersRequest, SubscribersReply>('./sfu/subscribers.ts'),
      ),
    );
    processes.push(...hosts);

    const windows: Window[] = [];
    let joined = 0;
    let receiving = 0;
    let failedJoins = 0;
    for (const count of counts) {
      const tokens = await Promise.all(
        Array.from({ length: count - joined }, (_, i) => mint(`subscriber-${joined + i + 1}`, false)),
      );
      // Round robin over the hosts, so that each count spreads over every subscriber process.
      const byHost = hosts.map((_, h) => tokens.filter((_, i) => (joined + i) % hostCount === h));
      const joinedAt = performance.now();
      // One host at a time: JOIN_CONCURRENCY handshakes in flight in all.
      const replies: Extract<SubscribersReply, { type: 'join' }>[] = [];
      let cpuBefore = cpuMicrosOf(mediaPid);
      let timeBefore = performance.now();
      for (const [h, host] of hosts.entries()) {
        if (byHost[h].length === 0) continue;
        replies.push(await host.ask({ type: 'join', url, tokens: byHost[h], concurrency: JOIN_CONCURRENCY }));
        const [cpu, now] = [cpuMicrosOf(mediaPid), performance.now()];
        progress(
          `    ${replies.reduce((sum, r) => sum + r.joined, receiving)} receiving ` +
            `(media process: RSS ${mib(rssOf(mediaPid)).toFixed(0)} MiB, ` +
            `${((cpu - cpuBefore) / (now - timeBefore) / 10).toFixed(0)}% of a core meanwhile)`,
        );
        [cpuBefore, timeBefore] = [cpu, now];
      }
      const joinSeconds = (performance.now() - joinedAt) / 1000;
      const { mark: now } = await publisher.ask({ type: 'mark' });
      const mediaNow = childrenOf(server.pid).find((pid) => commandOf(pid).includes('media'));
      if (now.connectionState !== 'connected' || mediaNow !== mediaPid)
        progress(
          `    the publisher's connection is ${now.connectionState}; the media process ` +
            `${mediaNow === mediaPid ? 'is the same' : `was replaced (${mediaPid} → ${mediaNow})`}`,
        );
      const sum = (of: (r: (typeof replies)[number]) => number) => replies.reduce((total, r) => total + of(r), 0);
      // A subscriber that could not join is left out and counted: the window measures those receiving.
      failedJoins += sum((r) => r.failed);
      receiving += sum((r) => r.joined);
      const retries = sum((r) => r.retries);
      joined = count;
      if (receiving === 0)
        throw new Error(`no subscriber could join: ${replies.find((r) => r.firstError)?.firstError}`);
      progress(
        `  ${receiving} of ${count} subscribers receiving (joined in ${joinSeconds.toFixed(1)} s` +
          `${retries ? `; ${retries} joins tried again, ${failedJoins} given up: ${replies.find((r) => r.firstError)?.firstError}` : ''}); ` +
          `window of ${config.sfuWindow} s …`,
      );
      await sleep(SETTLE_MS);
      const rss = rssOf(mediaPid);
      windows.push({
        ...(await measureWindow(count, config.sfuWindow, mediaPid, publisher, hosts)),
        rss,
        joinSeconds,
        joinRetries: retries,
        failedJoins,
      });
    }

    progress(`  timing ${GETS} key-authenticated GETs while forwarding to ${joined} …`);
    const busyGets = await timeGets(url, apiKey);
    progress(`  ${LATE_JOINS} late joiners …`);
    const lateJoins: LateJoin[] = [];
    for (let i = 0; i < LATE_JOINS; i++) {
      const token = await mint(`late-${i + 1}`, false);
      // One that gets no keyframe is reported as such (an infinite time), not a reason to stop.
      const late = await hosts[i % hostCount].ask({ type: 'late-join', url, token }).then(
        (reply) => reply.join,
        async (err: unknown) => {
          // Which side is gone: a publisher whose connection failed sends nothing to anyone.
          const { mark } = await publisher.ask({ type: 'mark' });
          progress(
            `    a late joiner failed: ${(err as Error).message.split('\n')[0]} (the publisher's connection is ` +
              `${mark.connectionState})`,
          );
          return { offer: Number.NaN, connected: Number.NaN, keyframeStart: Infinity, keyframeComplete: Infinity };
        },
      );
      lateJoins.push(late);
      // Past the server's keyframe throttle (500 ms), so that each join asks for its own.
      await sleep(700);
    }
    const { mark: last } = await publisher.ask({ type: 'mark' });
    for (const child of processes) child.stop();
    progress('  the floor …');
    const forwarded = windows.map((w) => forwardedIn(w));
    const floorMicros = await measureFloor(last.recentSizes, Math.min(30_000, Math.max(5000, ...forwarded)));
    printSfuReport(windows, floorMicros, rssBase, idleGets, busyGets, lateJoins, last);
  } finally {
    for (const child of processes) child.stop();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const forwardedIn = (w: Window) => w.counts.reduce((sum, c) => sum + c.video + c.audio, 0);
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');
const mib = (bytes: number) => bytes / 1024 / 1024;

function printSfuReport(
  windows: Window[],
  floorMicros: number,
  rssBase: number,
  idleGets: number[],
  busyGets: number[],
  lateJoins: LateJoin[],
  last: PublisherMark,
): void {
  const rows = [
    [
      'Subscribers',
      'video kbps',
      'pkt/s in',
      'received min (video/audio)',
      'media CPU',
      'µs/fwd pkt',
      '× floor',
      'down-tracks/core',
      'one-way p50',
      'p99',
      'worst sub p99',
      'RSS/subscriber',
    ],
  ];
  for (const w of windows) {
    const video = w.end.videoSent - w.start.videoSent;
    const audio = w.end.audioSent - w.start.audioSent;
    const minVideo = Math.min(...w.counts.map((c) => c.video)) / video;
    const minAudio = Math.min(...w.counts.map((c) => c.audio)) / audio;
    const perPacket = w.mediaCpuMicros / forwardedIn(w);
    const videoPerSecond = video / w.seconds;
    rows.push([
      w.counts.length === w.subscribers ? String(w.subscribers) : `${w.counts.length} of ${w.subscribers}`,
      fixed(((w.end.videoBytes - w.start.videoBytes) * 8) / w.seconds / 1000, 0),
      fixed((video + audio) / w.seconds, 0),
      `${fixed(minVideo * 100, 2)}% / ${fixed(minAudio * 100, 2)}%`,
      `${fixed(w.mediaCpuMicros / w.seconds / 1e4)}% of a core`,
      fixed(perPacket),
      `${fixed(perPacket / floorMicros, 2)}×`,
      fixed(1e6 / perPacket / videoPerSecond, 0),
      `${fixed(percentile(w.latencies, 50), 2)} ms`,
      `${fixed(percentile(w.latencies, 99), 1)} ms`,
      `${fixed(Math.max(...w.counts.map((c) => c.p99Ms)), 1)} ms`,
      `${fixed(mib(w.rss - rssBase) / w.counts.length, 2)} MiB`,
    ]);
  }
  console.log('');
  console.log(`SFU: one publisher (${last.keyframesSent} keyframes sent for ${last.plisReceived} keyframe requests)`);
  console.log(formatColumns(rows));
  console.log(
    `floor (node:crypto SRTP AES-128-CTR + HMAC-SHA1-80 of packets of the same sizes + one UDP send): ${fixed(floorMicros)} µs/packet`,
  );
  for (let i = 1; i < windows.length; i++) {
    const [a, b] = [windows[i - 1], windows[i]];
    const marginal =
      (b.mediaCpuMicros / b.seconds - a.mediaCpuMicros / a.seconds) /
      (forwardedIn(b) / b.seconds - forwardedIn(a) / a.seconds);
    const videoPerSecond = (b.end.videoSent - b.start.videoSent) / b.seconds;
    console.log(
      `marginal CPU per forwarded packet, ${a.subscribers} → ${b.subscribers} subscribers: ${fixed(marginal)} µs ` +
        `(${fixed(marginal / floorMicros, 2)}× floor, ≈${fixed(1e6 / marginal / videoPerSecond, 0)} video down-tracks per core)`,
    );
  }
  for (const w of windows)
    console.log(
      `  ${w.subscribers} subscribers: joined in ${fixed(w.joinSeconds)} s${w.joinRetries ? ` (${w.joinRetries} tried again, ${w.failedJoins} given up)` : ''}; their processes used ` +
        `${fixed(w.subscriberCpuMicros / w.seconds / 1e4)}% of a core; media process RSS ${fixed(mib(w.rss))} MiB ` +
        `(${fixed(mib(rssBase))} MiB with the publisher alone)`,
    );

  const most = windows.at(-1);
  if (!most) return;
  const video = most.end.videoSent - most.start.videoSent;
  const audio = most.end.audioSent - most.start.audioSent;
  const received = Math.min(...most.counts.map((c) => Math.min(c.video / video, c.audio / audio)));
  const perPacket = most.mediaCpuMicros / forwardedIn(most);
  const downTracks = 1e6 / perPacket / (video / most.seconds);
  const p99 = percentile(most.latencies, 99);
  const [idleP99, busyP99] = [percentile(idleGets, 99), percentile(busyGets, 99)];
  const firstFrames = lateJoins.map((j) => j.keyframeComplete);
  console.log(
    `key-authenticated GET (${GETS} at ${GETS_PER_SECOND}/s, one at a time): idle p50 ${fixed(percentile(idleGets, 50), 2)} / ` +
      `p99 ${fixed(idleP99, 2)} ms; forwarding to ${most.subscribers}: p50 ${fixed(percentile(busyGets, 50), 2)} / ` +
      `p99 ${fixed(busyP99, 2)} ms (×${fixed(busyP99 / idleP99, 2)})`,
  );
  console.log(
    `late joiners (with ${most.subscribers} subscribers), ms from opening the socket: ` +
      lateJoins
        .map(
          (j) =>
            `offer ${fixed(j.offer, 0)}, connected ${fixed(j.connected, 0)}, first keyframe ${fixed(j.keyframeStart, 0)}–${fixed(j.keyframeComplete, 0)}`,
        )
        .join('; '),
  );
  console.log('');
  console.log(
    formatColumns([
      ['Goal (issue 47)', `at ${most.counts.length} subscribers`, 'goal', ''],
      [
        'packets received, every subscriber',
        `${fixed(received * 100, 2)}%`,
        '≥ 99%',
        verdict(received >= GOALS.received),
      ],
      [
        'CPU per forwarded packet / floor',
        `${fixed(perPacket / floorMicros, 2)}×`,
        '≤ 3×',
        verdict(perPacket / floorMicros <= GOALS.floorRatio),
      ],
      ['video down-tracks per core', fixed(downTracks, 0), '≥ 100', verdict(downTracks >= GOALS.downTracksPerCore)],
      ['one-way latency p99', `${fixed(p99)} ms`, '≤ 20 ms', verdict(p99 <= GOALS.p99Ms)],
      [
        'key-auth GET p99, forwarding / idle',
        `×${fixed(busyP99 / idleP99, 2)}`,
        '≤ ×1.5',
        verdict(busyP99 / idleP99 <= GOALS.getRatio),
      ],
      [
        'late joiner first keyframe (worst)',
        `${fixed(Math.max(...firstFrames), 0)} ms`,
        '≤ 1 s',
        verdict(Math.max(...firstFrames) <= GOALS.firstFrameMs),
      ],
      ['memory per subscriber (RSS)', `${fixed(mib(most.rss - rssBase) / most.counts.length, 2)} MiB`, '—', ''],
    ]),
  );
}
