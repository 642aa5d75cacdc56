/**
 * What Prometheus metrics (`--metrics-port`) cost the chat message POST with 100 subscribers online (BENCH_ONLY=metrics):
 * the same load against the server without metrics and with them, scraped every 5 s meanwhile (three times
 * Prometheus' default interval; a scrape costs the server a few milliseconds of CPU, see docs/benchmarks.md), in off-on, on-off order over BENCH_METRICS_ROUNDS rounds (default 4),
 * each on a fresh data folder with its subscribers (permessage-deflate, as browsers) connected.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversationOn, prepareConversation, spawnSubscribers } from './chat.js';
import { spawnServer } from './child.js';
import type { BenchConfig } from './config.js';
import { type LoadOptions, type Measurement, measure, requireAllOk } from './load.js';
import { formatTable } from './report.js';
import { createCredentials } from './setup.js';

/** The goal: metrics cost the message POST at most this share of its throughput. */
export const MAX_OVERHEAD = 0.03;
const SUBSCRIBERS = 100;
const SCRAPE_EVERY_MS = 5_000;

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** A loopback port nothing listens on, for the server's metrics listener (the bench scrapes it). */
async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function measureOnce(config: BenchConfig, load: LoadOptions, metrics: boolean): Promise<Measurement> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-metrics-'));
  const metricsPort = metrics ? await freeLoopbackPort() : undefined;
  const server = await spawnServer(
    metrics ? 'switchboard-metrics' : 'switchboard',
    metrics ? [dataDir, String(metricsPort)] : [dataDir],
    config.cpuProfDir,
  );
  const subscribers = await spawnSubscribers({ deflate: true });
  let scraper: NodeJS.Timeout | undefined;
  let scrapes = 0;
  try {
    const { apiKey } = await createCredentials(server.url);
    const { target, urls } = conversationOn(server, await prepareConversation(server.url, apiKey, SUBSCRIBERS));
    await subscribers.open(urls);
    if (metricsPort)
      // From the warm-up on, so that a run of BENCH_DURATION 5 s or more has at least one.
      scraper = setInterval(() => {
        void fetch(`http://127.0.0.1:${metricsPort}/metrics`)
          .then((res) => res.text())
          .then(() => scrapes++);
      }, SCRAPE_EVERY_MS);
    const name = `POST message, ${SUBSCRIBERS} online, metrics ${metrics ? 'on' : 'off'}`;
    progress(`Measuring ${name} …`);
    const measured = await measure(
      name,
      { url: new URL(target.path, server.url).href, cpuMicros: server.cpuMicros },
      {
        ...load,
        method: 'POST',
        headers: { ...target.headers, 'content-type': 'application/json' },
        body: target.body('hello from the benchmark'),
      },
    );
    if (metricsPort && scrapes === 0) throw new Error('The metrics were never scraped during the run.');
    return measured;
  } finally {
    clearInterval(scraper);
    await subscribers.stop();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function combine(name: string, runs: Measurement[]): Measurement {
  return {
    ...runs[0],
    name,
    requestsPerSecond: mean(runs.map((m) => m.requestsPerSecond)),
    p50: Math.round(mean(runs.map((m) => m.p50))),
    p99: Math.round(mean(runs.map((m) => m.p99))),
    responses: runs.reduce((a, m) => a + m.responses, 0),
    non2xx: runs.reduce((a, m) => a + m.non2xx, 0),
    errors: runs.reduce((a, m) => a + m.errors, 0),
    statusSummary: runs
      .map((m) => m.statusSummary)
      .filter(Boolean)
      .join('; '),
    serverCpuPerRequest: mean(runs.map((m) => m.serverCpuPerRequest)),
  };
}

/** Measures both ways and prints the table, the ratios and the ≤ 3% goal line. */
export async function runMetricsBench(config: BenchConfig, load: LoadOptions): Promise<void> {
  const rounds = Math.max(1, Math.round(Number(process.env.BENCH_METRICS_ROUNDS ?? 4)));
  const off: Measurement[] = [];
  const on: Measurement[] = [];
  for (let round = 0; round < rounds; round++) {
    // Off-on, then on-off (ABBA): a machine that slows down or speeds up weighs on both sides alike.
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const metrics of order) (metrics ? on : off).push(await measureOnce(config, load, metrics));
  }
  const offAll = combine(`POST message, metrics off (mean of ${rounds})`, off);
  const onAll = combine(`POST message, metrics on (mean of ${rounds})`, on);
  for (const m of [offAll, onAll]) requireAllOk(m);
  const overhead = 1 - onAll.requestsPerSecond / offAll.requestsPerSecond;
  const cpuOverhead = onAll.serverCpuPerRequest / offAll.serverCpuPerRequest - 1;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log('');
  console.log(formatTable([...off, ...on, offAll, onAll]));
  console.log('');
  console.log(`metrics on / off, message POST with ${SUBSCRIBERS} online: req/s overhead ${pct(overhead)}`);
  console.log(`  same, from server CPU µs/req:                         overhead ${pct(cpuOverhead)}`);
  console.log(
    `goal: ≤ ${pct(MAX_OVERHEAD)} overhead   ${overhead <= MAX_OVERHEAD ? 'PASS' : 'ABOVE GOAL'} (req/s), ` +
      `${cpuOverhead <= MAX_OVERHEAD ? 'PASS' : 'ABOVE GOAL'} (CPU)`,
  );
}
