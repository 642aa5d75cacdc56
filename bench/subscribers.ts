/**
 * The realtime subscribers of the chat benchmark, in their own process so that neither the server under test
 * nor the load generator pays for receiving the fan-out: `tsx bench/subscribers.ts`, started by
 * `spawnSubscribers` (bench/chat.ts) and driven over IPC. It opens WebSocket connections (to Switchboard's
 * `/v1/realtime` or to the raw broadcast server), waits for each one's `connected`, and stamps every
 * `message.created` whose text is `bench:<run>:<seq>` with its arrival time on this process's clock
 * (`performance.timeOrigin + performance.now()`); the parent converts to its own clock with the offset it
 * measures through `clock` requests. With `--deflate` its sockets offer permessage-deflate.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { inflateSynchronously } from './sync-inflate.js';

/** `--deflate`: the sockets offer permessage-deflate, as browsers do; otherwise they do not. */
const deflate = process.argv.includes('--deflate');
if (deflate) inflateSynchronously();

/** Messages from the parent. */
export type SubscriberRequest =
  /** Open these sockets (in addition to the open ones), at most `concurrency` handshakes at a time. */
  | { type: 'open'; urls: string[]; concurrency: number }
  /** Answer this process's clock now. */
  | { type: 'clock' }
  /** Answer once no message at all has arrived for `ms` (e.g. after a storm of presence events). */
  | { type: 'quiet'; ms: number }
  /** From now on, count and time the deliveries of run `run` only (and forget those of any earlier run). */
  | { type: 'record'; run: string }
  /** Answer the deliveries of the current run once there are `expected`, or no new one came for `idleMs`. */
  | { type: 'collect'; expected: number; idleMs: number; times: boolean };

/** Messages to the parent, each answering the request of the same `type` (`ready` once, at start). */
export type SubscriberReply =
  | { type: 'ready' }
  /**
   * `times`: when each socket of this request got its first message, in ms since the request, ascending;
   * `cpuMicros`: this process's CPU time meanwhile.
   */
  | {
      type: 'open';
      open: number;
      failed: number;
      firstError: string | undefined;
      ms: number;
      times: number[];
      cpuMicros: number;
    }
  | { type: 'clock'; now: number }
  | { type: 'quiet' }
  | { type: 'record' }
  /** `deliveries` is flat `[seq, time, seq, time, …]` when `times` was asked for, else empty. */
  | { type: 'collect'; count: number; deliveries: number[] };

const now = () => performance.timeOrigin + performance.now();
/** `"text":"bench:<run>:` as bytes, while a run is being recorded. */
let marker: Buffer | undefined;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const QUOTE = 0x22;
/** A handshake not answered in this time counts as failed. */
const OPEN_TIMEOUT_MS = 30_000;
/** `quiet` gives up waiting after this long (and answers anyway). */
const QUIET_MAX_MS = 120_000;

const sockets: WebSocket[] = [];
let lastArrival = now();
let count = 0;
let deliveries: number[] = [];

function onData(data: WebSocket.RawData): void {
  const arrived = now();
  lastArrival = arrived;
  if (!marker) return;
  // A byte search over the frame, neither JSON.parse nor even a string: with 1,000 sockets this process receives
  // up to millions of deliveries a second on the cores the server under test also needs. A frame may carry several
  // events, one per line (the server coalesces bursts); the benchmark posts only messages, so every marker found is
  // one delivery.
  const bytes = data as Buffer;
  for (let at = bytes.indexOf(marker); at !== -1; at = bytes.indexOf(marker, at + 1)) {
    let i = at + marker.length;
    let seq = 0;
    for (; i < bytes.length && bytes[i] >= DIGIT_0 && bytes[i] <= DIGIT_9; i++) seq = seq * 10 + bytes[i] - DIGIT_0;
    if (i === at + marker.length || bytes[i] !== QUOTE) continue;
    count++;
    deliveries.push(seq, arrived);
  }
}

/**
 * Resolves once the server's first message arrives (`connected` on the realtime socket, `joined` on the signaling
 * socket); rejects on a close or error before it.
 */
function openOne(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: deflate });
    const timer = setTimeout(() => fail(`no first message within ${OPEN_TIMEOUT_MS / 1000} s`), OPEN_TIMEOUT_MS);
    const fail = (reason: string) => {
      clearTimeout(timer);
      socket.terminate();
      reject(new Error(reason));
    };
    socket.once('error', (err) => fail(err.message));
    socket.once('close', (code, reason) => fail(`closed ${code} ${reason.toString()}`));
    socket.once('message', (data) => {
      clearTimeout(timer);
      const first = (JSON.parse(data.toString().split('\n')[0]) as { type?: string }).type;
      if (first !== 'connected' && first !== 'joined') {
        fail(`first message was ${first}, not connected or joined`);
        return;
      }
      socket.removeAllListeners('close').removeAllListeners('error');
      socket.on('error', () => {});
      socket.on('message', onData);
      resolve(socket);
    });
  });
}

async function openAll(urls: string[], concurrency: number): Promise<SubscriberReply> {
  const started = now();
  const cpu = process.cpuUsage();
  let next = 0;
  let failed = 0;
  let firstError: string | undefined;
  const times: number[] = [];
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++];
      try {
        sockets.push(await openOne(url));
        times.push(now() - started);
      } catch (err) {
        failed++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  const { user, system } = process.cpuUsage(cpu);
  return {
    type: 'open',
    open: sockets.length,
    failed,
    firstError,
    ms: now() - started,
    times,
    cpuMicros: user + system,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function quiet(ms: number): Promise<void> {
  const giveUp = now() + QUIET_MAX_MS;
  for (;;) {
    const idle = now() - lastArrival;
    if (idle >= ms || now() >= giveUp) return;
    await sleep(ms - idle + 1);
  }
}

async function collect(expected: number, idleMs: number, times: boolean): Promise<SubscriberReply> {
  let seen = count;
  let since = now();
  while (count < expected) {
    await sleep(20);
    if (count !== seen) {
      seen = count;
      since = now();
    } else if (now() - since >= idleMs) break;
  }
  return { type: 'collect', count, deliveries: times ? deliveries : [] };
}

async function handle(request: SubscriberRequest): Promise<SubscriberReply> {
  switch (request.type) {
    case 'open':
      return openAll(request.urls, request.concurrency);
    case 'clock':
      return { type: 'clock', now: now() };
    case 'quiet':
      await quiet(request.ms);
      return { type: 'quiet' };
    case 'record':
      marker = Buffer.from(`"text":"bench:${request.run}:`);
      count = 0;
      deliveries = [];
      return { type: 'record' };
    case 'collect':
      return collect(request.expected, request.idleMs, request.times);
  }
}

function main(): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('bench/subscribers.ts must be started by the benchmark (it is driven over IPC).');
  process.on('message', (request: SubscriberRequest) => {
    handle(request).then(
      (reply) => send(reply),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
  const stop = () => {
    for (const socket of sockets) socket.terminate();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  send({ type: 'ready' } satisfies SubscriberReply);
}

main();
