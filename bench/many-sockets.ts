/**
 * Many sockets on one node (BENCH_ONLY=sockets10k; issue 28 item 4, issue 30): BENCH_MANY_SOCKETS (default 10,000)
 * realtime sockets, each a member of one conversation with a chat token of its own, opened against Switchboard with its
 * default settings, then against a raw `ws` server doing the same (`raw-broadcast`, bench/servers.ts) in the same run:
 *
 * 1. the time to open them all from the subscribers process (BENCH_OPEN_CONCURRENCY handshakes at a time), and how the
 *    cost of a connection grows: the first 1,000's time against the last 1,000's;
 * 2. heap and resident memory per idle socket, each read after a full collection (with the sockets minus before them);
 * 3. post-to-receive p50/p99 of BENCH_MANY_MESSAGES messages, each to every socket, every delivery counted;
 * 4. meanwhile, a GET every 10 ms on a connection of its own (Switchboard's key-authenticated `/v1/whoami`, the raw
 *    server's `/ping`): p50/p99 and how many failed.
 *
 * Sockets, POSTs and GETs refused are counted and printed, not thrown: today's `--max-connections` (10,000) counts
 * upgraded sockets too, so with 10,000 open every new connection is refused (issue 30). BENCH_MAX_CONNECTIONS starts
 * Switchboard with another cap instead, to measure the rest of it meanwhile.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  conversationOn,
  type FanOutLatency,
  measureLatency,
  type PostTarget,
  prepareConversation,
  rawTarget,
  send,
  spawnSubscribers,
} from './chat.js';
import { type ServerProcess, spawnServer } from './child.js';
import { type BenchConfig, RAW_PING_PATH } from './config.js';
import { formatColumns, percentile } from './report.js';
import { createCredentials } from './setup.js';

/** Issue 28's and 30's targets, as ratios to raw `ws` in the same run. */
const TARGET = { open: 3, memory: 1.5, p99: 1.5 };
/** The growth of a connection's cost: the first and the last this many sockets (at most half of them). */
const CHUNK = 1_000;
/** Between the first request and the memory baseline: what the first request started (the runtime's jobs) settles. */
const SETTLE_MS = 2_000;
/** After the sockets connect, presence announcements must have settled before the heap is read. */
const QUIET_MS = 1_000;
/** The REST probe: one GET at a time, one every this many ms, at most PROBE_MAX of them. */
const PROBE_INTERVAL_MS = 10;
const PROBE_MAX = 100 * 60 * 10;
/** Open files each process keeps beside the sockets (database, logs, pipes, the modules being read). */
const OPEN_FILES_HEADROOM = 500;

const progress = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RestProbe {
  ok: number;
  failed: number;
  firstError: string | undefined;
  p50Ms: number;
  p99Ms: number;
}

interface SideResult {
  name: string;
  open: number;
  failedOpens: number;
  firstOpenError: string | undefined;
  openMs: number;
  /** The server's and the subscribers process's CPU time while they opened, per socket. */
  openCpuMicros: { server: number; subscribers: number };
  firstChunkMs: number;
  lastChunkMs: number;
  chunk: number;
  heapPerSocket: number;
  rssPerSocket: number;
  /** Of the resident memory per socket, what is outside the V8 heap. */
  outsideHeapPerSocket: number;
  latency: FanOutLatency;
  rest: RestProbe;
}

/** GETs one at a time on a kept-alive connection of their own until `stop()` (or PROBE_MAX), timed and counted. */
function startRestProbe(url: URL, headers: Record<string, string>): { stop(): Promise<RestProbe> } {
  const via = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let failed = 0;
  let firstError: string | undefined;
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; i < PROBE_MAX && !stopped; i++) {
      const started = performance.now();
      const status = await send(url, via, 'GET', headers).catch((err: Error) => err.message);
      if (status === 200) times.push(performance.now() - started);
      else {
        failed++;
        firstError ??= String(status);
      }
      await sleep(Math.max(0, PROBE_INTERVAL_MS - (performance.now() - started)));
    }
  })();
  // Stopping twice answers the same.
  return {
    async stop() {
      stopped = true;
      await loop;
      via.destroy();
      const sorted = Float64Array.from(times).sort();
      return { ok: times.length, failed, firstError, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
    },
  };
}

/** Opens the sockets, reads the memory they take, then times the fan-out to them while probing REST; stops `server`. */
async function measureSide(
  name: string,
  server: ServerProcess,
  target: PostTarget,
  urls: string[],
  probe: { url: URL; headers: Record<string, string> },
  config: BenchConfig,
): Promise<SideResult> {
  const subscribers = await spawnSubscribers();
  try {
    // A first request, its connection closed after it (under today's `--max-connections` a kept-alive one would
    // take the place of a socket): Switchboard loads its runtime before the baseline.
    const once = new Agent({ keepAlive: false });
    await send(probe.url, once, 'GET', probe.headers);
    once.destroy();
    await sleep(SETTLE_MS);
    const before = await server.memory();
    const concurrency = config.openConcurrency;
    progress(`  ${name}: opening ${urls.length} sockets, ${concurrency} handshakes at a time …`);
    const cpuBefore = await server.cpuMicros();
    const opened = await subscribers.request({ type: 'open', urls, concurrency });
    const openCpuMicros = (await server.cpuMicros()) - cpuBefore;
    const failures = opened.failed > 0 ? `; ${opened.failed} failed (${opened.firstError})` : '';
    progress(`    ${opened.open} open in ${(opened.ms / 1000).toFixed(1)} s${failures}`);
    await subscribers.request({ type: 'quiet', ms: QUIET_MS });
    const after = await server.memory();
    const probing = startRestProbe(probe.url, probe.headers);
    const latency = await measureLatency(
      target,
      subscribers,
      opened.open,
      config.manyMessages,
      config.chatRate,
    ).finally(() => probing.stop());
    const rest = await probing.stop();
    const { times } = opened;
    const chunk = Math.min(CHUNK, Math.floor(times.length / 2));
    const last = times.length - 1;
    return {
      name,
      open: opened.open,
      failedOpens: opened.failed,
      firstOpenError: opened.firstError,
      openMs: opened.ms,
      openCpuMicros: { server: openCpuMicros / opened.open, subscribers: opened.cpuMicros / opened.open },
      chunk,
      firstChunkMs: chunk > 0 ? times[chunk - 1] : Number.NaN,
      lastChunkMs: chunk > 0 ? times[last] - times[last - chunk] : Number.NaN,
      heapPerSocket: (after.heap - before.heap) / opened.open,
      rssPerSocket: (after.rss - before.rss) / opened.open,
      outsideHeapPerSocket: (after.outsideHeap - before.outsideHeap) / opened.open,
      latency,
      rest,
    };
  } finally {
    // The server first: closing 10,000 sockets under it would announce each departure to all the others.
    await server.stop();
    await subscribers.stop();
  }
}

/** Both the subscribers process and the server hold one file per socket: stay inside the open-file limit. */
function checkOpenFileLimit(sockets: number): void {
  const limit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  if (Number.isFinite(limit) && sockets + OPEN_FILES_HEADROOM > limit) {
    throw new Error(
      `BENCH_MANY_SOCKETS=${sockets} needs ${sockets + OPEN_FILES_HEADROOM} open files per process; ulimit -n is ${limit}.`,
    );
  }
}

async function stopAfter<T>(server: ServerProcess, run: (server: ServerProcess) => Promise<T>): Promise<T> {
  try {
    return await run(server);
  } finally {
    await server.stop();
  }
}

export async function runManySocketsBench(config: BenchConfig): Promise<void> {
  const count = config.manySockets;
  checkOpenFileLimit(count);
  const dataDir = await mkdtemp(join(tmpdir(), 'switchboard-many-sockets-'));
  try {
    progress(`Measuring ${count} realtime sockets on one node, raw ws first …`);
    const raw = await stopAfter(
      await spawnServer('raw-broadcast', [join(dataDir, 'raw.db')], config.cpuProfDir),
      (server) => {
        const urls = Array.from({ length: count }, () => server.url.replace(/^http/, 'ws'));
        const probe = { url: new URL(RAW_PING_PATH, server.url), headers: {} };
        return measureSide('raw ws', server, rawTarget('raw ws broadcast', server), urls, probe, config);
      },
    );
    const folder = join(dataDir, 'switchboard');
    const conversation = await stopAfter(await spawnServer('switchboard', [folder]), async ({ url }) =>
      prepareConversation(url, (await createCredentials(url)).apiKey, count),
    );
    // Measured on a new server on the data just made: memory in use after a collection (and even more the resident
    // memory, which the allocators keep) would otherwise start from whatever tens of thousands of setup requests left.
    const cap = config.maxConnections === undefined ? [] : [String(config.maxConnections)];
    const switchboard = await stopAfter(
      await spawnServer('switchboard', [folder, ...cap], config.cpuProfDir),
      (server) => {
        const { target, urls } = conversationOn(server, conversation);
        const authorization = `Bearer ${conversation.apiKey}`;
        const probe = { url: new URL('/v1/whoami', server.url), headers: { authorization } };
        return measureSide('Switchboard', server, target, urls, probe, config);
      },
    );
    printReport(config, switchboard, raw);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The report

/** The value with `digits` decimals and its unit, or a dash for none (nothing measured). */
const fixed = (value: number, digits: number, unit = '') =>
  Number.isFinite(value) ? `${value.toFixed(digits)}${unit}` : '—';
const seconds = (ms: number) => fixed(ms / 1000, 2, ' s');
const kb = (bytes: number) => fixed(bytes / 1024, 1, ' KB');
const millis = (ms: number) => fixed(ms, 1, ' ms');
const times = (ratio: number) => (Number.isFinite(ratio) ? `×${ratio.toFixed(2)}` : '—');
/** The ratio and the verdict cells of a figure with a target ratio. */
const against = (value: number, floor: number, target: number) => {
  const ratio = value / floor;
  return [times(ratio), `≤ ×${target}`, ratio <= target ? 'met' : 'NOT met'];
};
/** The verdict cells of a count that should be 0. */
const none = (...counts: number[]) => ['', '0', counts.every((n) => n === 0) ? 'met' : 'NOT met'];

function printReport(config: BenchConfig, sb: SideResult, raw: SideResult): void {
  const n = config.manySockets;
  const cap = config.maxConnections === undefined ? 'default settings' : `--max-connections ${config.maxConnections}`;
  const cpuRow = (whose: string, of: (side: SideResult) => number) => [
    `  ${whose} CPU per socket`,
    fixed(of(sb), 0, ' µs'),
    fixed(of(raw), 0, ' µs'),
    times(of(sb) / of(raw)),
  ];
  const chunkRow = (side: SideResult) => `${seconds(side.firstChunkMs)} / ${seconds(side.lastChunkMs)}`;
  const lat = (side: SideResult) => side.latency;
  const lost = (side: SideResult) => `${lat(side).undelivered} / ${lat(side).failedPosts}`;
  const rest = (side: SideResult) => `${millis(side.rest.p50Ms)} / ${millis(side.rest.p99Ms)}`;
  const restFailed = (side: SideResult) => `${side.rest.failed} of ${side.rest.ok + side.rest.failed}`;
  console.log('');
  console.log(
    `${n} realtime sockets on one node: one conversation of ${n + 1} members, a chat token each, ` +
      `${config.openConcurrency} handshakes at a time; Switchboard with ${cap}`,
  );
  console.log(
    formatColumns([
      ['figure', 'Switchboard', 'raw ws', 'ratio', 'target', ''],
      [`open ${n} sockets`, seconds(sb.openMs), seconds(raw.openMs), ...against(sb.openMs, raw.openMs, TARGET.open)],
      [`  the first / the last ${sb.chunk}`, chunkRow(sb), chunkRow(raw)],
      cpuRow('server', (side) => side.openCpuMicros.server),
      cpuRow('subscribers’', (side) => side.openCpuMicros.subscribers),
      ['  refused or failed', String(sb.failedOpens), String(raw.failedOpens), ...none(sb.failedOpens)],
      [
        'heap per idle socket',
        kb(sb.heapPerSocket),
        kb(raw.heapPerSocket),
        ...against(sb.heapPerSocket, raw.heapPerSocket, TARGET.memory),
      ],
      [
        'resident memory per idle socket',
        kb(sb.rssPerSocket),
        kb(raw.rssPerSocket),
        ...against(sb.rssPerSocket, raw.rssPerSocket, TARGET.memory),
      ],
      [
        '  of which outside the V8 heap',
        kb(sb.outsideHeapPerSocket),
        kb(raw.outsideHeapPerSocket),
        times(sb.outsideHeapPerSocket / raw.outsideHeapPerSocket),
      ],
      [
        `fan-out p50, ${lat(sb).messages} messages`,
        millis(lat(sb).p50Ms),
        millis(lat(raw).p50Ms),
        times(lat(sb).p50Ms / lat(raw).p50Ms),
      ],
      [
        'fan-out p99',
        millis(lat(sb).p99Ms),
        millis(lat(raw).p99Ms),
        ...against(lat(sb).p99Ms, lat(raw).p99Ms, TARGET.p99),
      ],
      ['  deliveries lost / POSTs failed', lost(sb), lost(raw), ...none(lat(sb).undelivered, lat(sb).failedPosts)],
      ['GET p50 / p99 meanwhile', rest(sb), rest(raw), times(sb.rest.p99Ms / raw.rest.p99Ms)],
      ['  GETs failed', restFailed(sb), restFailed(raw), ...none(sb.rest.failed)],
    ]),
  );
  for (const side of [sb, raw]) {
    if (side.failedOpens > 0) console.log(`${side.name}: first socket failure: ${side.firstOpenError}`);
    if (side.rest.failed > 0) console.log(`${side.name}: first GET failure: ${side.rest.firstError}`);
  }
  console.log(
    'Sockets are opened from one process that also receives every presence announcement; figures are ratios to ' +
      'raw ws in this run.',
  );
}
