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
import { type LoadOptions, type Measurement, measure } from './load.js';
import { compareOffOn, progress } from './off-on.js';
import { createCredentials } from './setup.js';

/** The goal: metrics cost the message POST at most this share of its throughput. */
export const MAX_OVERHEAD = 0.03;
const SUBSCRIBERS = 100;
const SCRAPE_EVERY_MS = 5_000;

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

/** Measures both ways and prints the table, the ratios and the ≤ 3% goal line. */
export async function runMetricsBench(config: BenchConfig, load: LoadOptions): Promise<void> {
  await compareOffOn({
    feature: 'metrics',
    scenario: `POST message with ${SUBSCRIBERS} online`,
    rounds: Math.max(1, Math.round(Number(process.env.BENCH_METRICS_ROUNDS ?? 4))),
    maxOverhead: MAX_OVERHEAD,
    measureOnce: (metrics) => measureOnce(config, load, metrics),
  });
}
