/**
 * Webhook latency (BENCH_ONLY=webhooks): messages are posted at BENCH_WEBHOOK_RATE a second (default 200) for
 * BENCH_DURATION seconds, each a `message.created` for two endpoints on a local receiver, and the time from each
 * message's 201 to its delivery's first attempt arriving at the receiver is measured (one process, one clock).
 * Then the same again on a new server with a third endpoint that takes 4 s to answer: the two healthy endpoints'
 * latency must not suffer from it.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer } from './child.js';
import type { BenchConfig } from './config.js';
import { percentile } from './report.js';
import { call, createCredentials } from './setup.js';

const P50_TARGET_MS = 50;
const P99_TARGET_MS = 1000;
/** A slow endpoint may cost the others at most this much (a ratio of their median latency). */
const SLOWDOWN_TARGET = 1.1;
const SLOW_ANSWER_MS = 4000;
const HEALTHY = ['a', 'b'] as const;

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** Where deliveries arrive: `/<endpoint>` answers 200 at once, `/slow` after 4 s; first arrivals are kept. */
interface Receiver {
  url: string;
  /** Per endpoint path: message id → arrival time (performance.now()). */
  arrivals: Map<string, Map<string, number>>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, Map<string, number>>();
  const open = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const arrived = performance.now();
    const endpoint = (req.url ?? '/').slice(1);
    void readBody(req).then((body) => {
      const id = (JSON.parse(body) as { data?: { message?: { id?: string } } }).data?.message?.id;
      const byId = arrivals.get(endpoint) ?? new Map<string, number>();
      arrivals.set(endpoint, byId);
      if (id && !byId.has(id)) byId.set(id, arrived);
      if (endpoint !== 'slow') {
        res.end();
        return;
      }
      const timer = setTimeout(() => {
        open.delete(timer);
        res.end();
      }, SLOW_ANSWER_MS);
      open.add(timer);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: () =>
      new Promise((resolve) => {
        for (const timer of open) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface LatencyFigures {
  p50Ms: number;
  p99Ms: number;
  delivered: number;
  sent: number;
}

/** One run on a new server: posts at the rate, then waits until the healthy endpoints got every message. */
async function measureRun(config: BenchConfig, withSlowEndpoint: boolean): Promise<LatencyFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), 'switchboard-webhooks-'));
  const receiver = await startReceiver();
  const server = await spawnServer('switchboard', [dataDir], config.cpuProfDir);
  try {
    const { url } = server;
    const { apiKey, sessionToken, projectId } = await createCredentials(url);
    const endpoints = withSlowEndpoint ? [...HEALTHY, 'slow'] : [...HEALTHY];
    for (const name of endpoints) {
      await call(
        url,
        'POST',
        `/v1/projects/${projectId}/webhooks`,
        { url: `${receiver.url}/${name}`, environment: 'development', events: ['message.created'] },
        sessionToken,
      );
    }
    const senderId = 'bench-sender';
    const conversation = await call<{ id: string }>(
      url,
      'POST',
      '/v1/chat/conversations',
      { name: 'bench-webhooks', members: [{ userId: senderId }] },
      apiKey,
    );
    const post = async (n: number) => {
      const res = await fetch(`${url}/v1/chat/conversations/${conversation.id}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: `webhook bench ${n}`, senderId }),
      });
      const answered = performance.now();
      const { id } = (await res.json()) as { id: string };
      if (res.status !== 201) throw new Error(`Message POST answered ${res.status}`);
      return { id, answered };
    };

    const total = Math.round(config.webhookRate * config.duration);
    progress(
      `Measuring webhook latency${withSlowEndpoint ? ' beside a 4 s endpoint' : ''}: ${total} messages at ` +
        `${config.webhookRate}/s …`,
    );
    const started = performance.now();
    const posts: Promise<{ id: string; answered: number }>[] = [];
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / config.webhookRate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      posts.push(post(n));
    }
    const sent = await Promise.all(posts);
    const deadline = performance.now() + 30_000;
    const received = () => Math.min(...HEALTHY.map((name) => receiver.arrivals.get(name)?.size ?? 0));
    while (received() < total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));

    const latencies: number[] = [];
    for (const name of HEALTHY) {
      const arrivals = receiver.arrivals.get(name) ?? new Map<string, number>();
      for (const { id, answered } of sent) {
        const arrived = arrivals.get(id);
        if (arrived !== undefined) latencies.push(Math.max(0, arrived - answered));
      }
    }
    latencies.sort((a, b) => a - b);
    return {
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      delivered: latencies.length,
      sent: total * HEALTHY.length,
    };
  } finally {
    await server.stop();
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

export async function runWebhookBench(config: BenchConfig): Promise<void> {
  const alone = await measureRun(config, false);
  const besideSlow = await measureRun(config, true);
  const ratio = besideSlow.p50Ms / alone.p50Ms;
  const row = (label: string, f: LatencyFigures) =>
    `${label.padEnd(34)} p50 ${f.p50Ms.toFixed(1).padStart(7)} ms  p99 ${f.p99Ms.toFixed(1).padStart(7)} ms  ` +
    `(${f.delivered}/${f.sent} delivered)`;
  console.log('');
  console.log(`Webhooks: message 201 → first delivery attempt arriving, ${config.webhookRate} messages/s, 2 endpoints`);
  console.log(row('two endpoints', alone));
  console.log(row('beside an endpoint taking 4 s', besideSlow));
  console.log(
    `p50 ≤ ${P50_TARGET_MS} ms: ${met(alone.p50Ms <= P50_TARGET_MS)}; p99 ≤ ${P99_TARGET_MS} ms: ` +
      `${met(alone.p99Ms <= P99_TARGET_MS)}; a 4 s endpoint slows the others ×${ratio.toFixed(2)} at p50 ` +
      `(target < ×${SLOWDOWN_TARGET}: ${met(ratio < SLOWDOWN_TARGET)}), ×${(besideSlow.p99Ms / alone.p99Ms).toFixed(2)} at p99`,
  );
  for (const f of [alone, besideSlow]) {
    if (f.delivered < f.sent) console.log(`warning: ${f.sent - f.delivered} deliveries did not arrive within 30 s.`);
  }
}
