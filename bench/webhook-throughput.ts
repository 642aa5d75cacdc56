/**
 * Webhook throughput (BENCH_ONLY=webhook-throughput, also part of `npm run bench`): what one subscribed endpoint costs
 * the message POST, and how fast deliveries go out, on SQLite and PostgreSQL side by side in one run (issue 45).
 *
 * Per store, on a new server with two projects, one of them with an endpoint subscribed to `message.created` on a
 * local receiver that answers 200 at once: 8 concurrent writers post into one conversation of each project in
 * alternating rounds (a third of BENCH_WEBHOOK_MESSAGES each, default 3,000; each subscribed round's deliveries
 * drained before the next), the POST ratio taken from the medians. Then BENCH_WEBHOOK_MESSAGES messages with the
 * endpoint: deliveries a second over that run; the rate at which the backlog left when posting stopped drains; how
 * long after the last message was posted its event arrived. The floor: this process signing and POSTing the same bodies to the same receiver, 8 in flight.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signatureHeader } from '../server/webhooks/signature.js';
import { postgresMissing, startPostgres } from '../test/support/postgres.js';
import { type ServerProcess, spawnServer } from './child.js';
import { call, createCredentials } from './setup.js';

/** POST with one endpoint subscribed / POST without, at least (item 1). */
export const SUBSCRIBED_POST_TARGET = 0.8;
/** Backlog drained per second / the floor, at least (item 2). */
export const DRAIN_TARGET = 0.5;
/** The last event arrives within this share of the posting time after the last message was posted. */
export const LAST_ARRIVAL_TARGET = 0.2;
const WRITERS = 8;
/** Alternating rounds of the POST with and without the endpoint; the ratio is of their medians. */
const RATIO_ROUNDS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const DELIVERY_WAIT_MS = 120_000;

const progress = (line: string) => process.stderr.write(`${line}\n`);
const messages = () => Math.max(100, Math.round(Number(process.env.BENCH_WEBHOOK_MESSAGES ?? 3000)));

/** Counts first arrivals by event id; answers 200 at once. */
interface Receiver {
  url: string;
  /** Distinct event ids arrived, and every arrival (duplicates too). */
  distinct(): number;
  arrivals(): number;
  /** When the distinct count last grew (performance.now()). */
  lastArrivalAt(): number;
  reset(): void;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  let seen = new Set<string>();
  let arrivals = 0;
  let lastAt = 0;
  const server: Server = createServer((req, res) => {
    const id = req.headers['service-event-id'];
    req.resume();
    req.once('end', () => {
      arrivals++;
      if (typeof id === 'string' && !seen.has(id)) {
        seen.add(id);
        lastAt = performance.now();
      }
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    distinct: () => seen.size,
    arrivals: () => arrivals,
    lastArrivalAt: () => lastAt,
    reset() {
      seen = new Set();
      arrivals = 0;
      lastAt = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Runs `total` tasks, `concurrency` at a time; answers the seconds taken. */
async function inFlight(total: number, concurrency: number, task: (n: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await task(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

/** The floor: signed POSTs of a delivery-sized body from Node to the receiver, 8 in flight. */
async function measureFloor(receiver: Receiver, total: number): Promise<number> {
  const secret = 'whsec_bench';
  const body = JSON.stringify({
    id: 'evt_bench',
    type: 'message.created',
    projectId: 'prj_bench',
    environment: 'DEVELOPMENT',
    createdAt: new Date().toISOString(),
    data: { message: { id: 'msg_bench', text: 'webhook throughput', senderId: 'bench-sender' } },
  });
  receiver.reset();
  const seconds = await inFlight(total, WRITERS, async (n) => {
    const res = await fetch(`${receiver.url}/floor`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'service-signature': signatureHeader(secret, Math.floor(Date.now() / 1000), body),
        'service-event-id': `evt_floor_${n}`,
        'service-event-type': 'message.created',
      },
      body,
      redirect: 'manual',
    });
    await res.arrayBuffer();
  });
  return total / seconds;
}

export interface StoreFigures {
  store: string;
  postsAlone: number;
  postsSubscribed: number;
  postingSeconds: number;
  /** Distinct events delivered a second, from the first post to the last arrival. */
  deliveriesPerSecond: number;
  /** Events delivered a second after posting stopped (the backlog it left). */
  drainPerSecond: number;
  backlogAtEnd: number;
  lastArrivalSeconds: number;
  duplicates: number;
  delivered: number;
  posted: number;
}

async function measureStore(store: string, server: ServerProcess, receiver: Receiver): Promise<StoreFigures> {
  const { url } = server;
  const total = messages();
  const { apiKey, sessionToken, projectId } = await createCredentials(url);
  const senderId = 'bench-sender';
  const conversation = await call<{ id: string }>(
    url,
    'POST',
    '/v1/chat/conversations',
    { name: 'bench-webhook-throughput', members: [{ userId: senderId }] },
    apiKey,
  );
  const poster = (conversationId: string, key: string) => async (n: number) => {
    const res = await fetch(`${url}/v1/chat/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: `webhook throughput ${n}`, senderId }),
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`Message POST answered ${res.status}`);
  };
  const post = poster(conversation.id, apiKey);
  // A second project, with no endpoint: its POSTs are the ones without, on the same server.
  const other = await call<{ id: string }>(url, 'POST', '/v1/projects', { name: 'Bench, no endpoint' }, sessionToken);
  const { key: otherKey } = await call<{ key: string }>(
    url,
    'POST',
    `/v1/projects/${other.id}/api-keys`,
    { name: 'bench' },
    sessionToken,
  );
  const otherConversation = await call<{ id: string }>(
    url,
    'POST',
    '/v1/chat/conversations',
    { name: 'bench-no-endpoint', members: [{ userId: senderId }] },
    otherKey,
  );
  const postAlone = poster(otherConversation.id, otherKey);
  // Warm-up: JIT, prepared statements, pooled connections.
  await inFlight(300, WRITERS, post);
  await inFlight(300, WRITERS, postAlone);

  await call(
    url,
    'POST',
    `/v1/projects/${projectId}/webhooks`,
    { url: `${receiver.url}/${store}`, environment: 'development', events: ['message.created'] },
    sessionToken,
  );
  // The POST with and without the endpoint in alternating rounds, each subscribed round's deliveries drained before
  // the next round: this machine's speed drifts over minutes, a pair of rounds seconds apart compares like with like.
  const roundSize = Math.max(100, Math.round(total / 3));
  const alone: number[] = [];
  const subscribed: number[] = [];
  for (let round = 1; round <= RATIO_ROUNDS; round++) {
    progress(`  ${store}: round ${round}, ${roundSize} messages without the endpoint, then with it …`);
    alone.push(roundSize / (await inFlight(roundSize, WRITERS, postAlone)));
    receiver.reset();
    subscribed.push(roundSize / (await inFlight(roundSize, WRITERS, post)));
    const drainBy = performance.now() + DELIVERY_WAIT_MS;
    while (receiver.distinct() < roundSize && performance.now() < drainBy) await new Promise((r) => setTimeout(r, 10));
  }
  const postsAlone = median(alone);
  const postsSubscribedRounds = median(subscribed);
  receiver.reset();
  progress(`  ${store}: ${total} messages, one endpoint subscribed, then the backlog drained …`);
  const started = performance.now();
  const postingSeconds = await inFlight(total, WRITERS, post);
  const postedAt = performance.now();
  const backlogAtEnd = total - receiver.distinct();
  const deadline = postedAt + DELIVERY_WAIT_MS;
  while (receiver.distinct() < total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const lastAt = receiver.lastArrivalAt();
  const delivered = receiver.distinct();
  return {
    store,
    postsAlone,
    postsSubscribed: postsSubscribedRounds,
    postingSeconds,
    deliveriesPerSecond: delivered / ((lastAt - started) / 1000),
    drainPerSecond: backlogAtEnd > 0 ? backlogAtEnd / (Math.max(1, lastAt - postedAt) / 1000) : Number.NaN,
    backlogAtEnd,
    lastArrivalSeconds: Math.max(0, lastAt - postedAt) / 1000,
    duplicates: receiver.arrivals() - delivered,
    delivered,
    posted: total,
  };
}

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const fixed = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

export async function runWebhookThroughputBench(cpuProfDir?: string): Promise<void> {
  const receiver = await startReceiver();
  const results: StoreFigures[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-webhook-throughput-'));
  const postgres = postgresMissing() ? undefined : await startPostgres();
  const stopPostgres = () => postgres?.stop();
  process.once('exit', stopPostgres);
  try {
    const stores: [string, () => Promise<ServerProcess>][] = [
      ['sqlite', () => spawnServer('switchboard', [join(dataDir, 'sqlite')], cpuProfDir)],
    ];
    if (postgres) {
      stores.push([
        'postgres',
        () =>
          spawnServer(
            'switchboard-postgres',
            [join(dataDir, 'postgres'), postgres.url(postgres.createDatabase())],
            cpuProfDir,
          ),
      ]);
    } else {
      progress(`PostgreSQL part skipped: ${postgresMissing()}.`);
    }
    progress('Measuring webhook throughput …');
    const floor = await measureFloor(receiver, messages());
    for (const [store, spawn] of stores) {
      const server = await spawn();
      try {
        results.push(await measureStore(store, server, receiver));
      } finally {
        await server.stop();
      }
    }
    const floorAfter = await measureFloor(receiver, messages());
    printThroughputReport(results, (floor + floorAfter) / 2);
  } finally {
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.off('exit', stopPostgres);
    postgres?.stop();
  }
}

function printThroughputReport(results: StoreFigures[], floor: number): void {
  console.log('');
  console.log(
    `Webhook throughput: ${WRITERS} writers, one conversation, one endpoint (200 at once); floor: Node signing and ` +
      `POSTing the same receiver, ${WRITERS} in flight: ${floor.toFixed(0)}/s`,
  );
  console.log(
    'store     | POSTs/s alone | subscribed (ratio) | deliveries/s | backlog drain/s (÷ floor) | last event after | dup',
  );
  for (const r of results) {
    console.log(
      `${r.store.padEnd(9)} | ${fixed(r.postsAlone).padStart(13)} | ` +
        `${`${fixed(r.postsSubscribed)} (×${fixed(r.postsSubscribed / r.postsAlone, 2)})`.padStart(18)} | ` +
        `${fixed(r.deliveriesPerSecond).padStart(12)} | ` +
        `${`${fixed(r.drainPerSecond)} of ${r.backlogAtEnd} (×${fixed(r.drainPerSecond / floor, 2)})`.padStart(25)} | ` +
        `${`${fixed(r.lastArrivalSeconds, 2)} s / ${fixed(r.postingSeconds, 2)} s`.padStart(16)} | ${r.duplicates}`,
    );
  }
  for (const r of results) {
    const ratio = r.postsSubscribed / r.postsAlone;
    const drain = Number.isFinite(r.drainPerSecond) ? r.drainPerSecond : r.deliveriesPerSecond;
    console.log(
      `${r.store}: subscribed POST ≥ ×${SUBSCRIBED_POST_TARGET}: ${met(ratio >= SUBSCRIBED_POST_TARGET)}; ` +
        `deliveries ≥ ×${DRAIN_TARGET} floor: ${met(drain >= DRAIN_TARGET * floor)}; last event within ` +
        `${LAST_ARRIVAL_TARGET * 100}% of posting time: ${met(r.lastArrivalSeconds <= LAST_ARRIVAL_TARGET * r.postingSeconds)}` +
        (r.delivered < r.posted ? `; ${r.posted - r.delivered} NOT delivered within ${DELIVERY_WAIT_MS / 1000} s` : ''),
    );
  }
}
