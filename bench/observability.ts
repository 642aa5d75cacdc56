/**
 * What observability recording costs the chat message POST: the same load against the server with
 * recording on (the default) and off (`observability: false`, which exists for this comparison only),
 * in off-on, on-off order over BENCH_OBSERVABILITY_ROUNDS rounds (default 2), each on a fresh data dir so
 * that neither side writes into a bigger database. Run alone with `BENCH_ONLY=observability npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer } from './child.js';
import type { BenchConfig } from './config.js';
import { type LoadOptions, type Measurement, measure, requireAllOk } from './load.js';
import { formatTable } from './report.js';
import { call, createCredentials } from './setup.js';

/** Recording may cost at most this share of message POST throughput. */
export const MAX_OVERHEAD = 0.1;

const progress = (line: string) => process.stderr.write(`${line}\n`);

async function measureOnce(config: BenchConfig, load: LoadOptions, observed: boolean): Promise<Measurement> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-obs-'));
  const server = await spawnServer(observed ? 'switchboard' : 'switchboard-unobserved', [dataDir], config.cpuProfDir);
  try {
    const { apiKey } = await createCredentials(server.url);
    const conversation = await call<{ id: string }>(
      server.url,
      'POST',
      '/v1/chat/conversations',
      { name: 'bench', members: [{ userId: 'alice' }] },
      apiKey,
    );
    const name = `POST message, observability ${observed ? 'on' : 'off'}`;
    progress(`Measuring ${name} …`);
    return await measure(
      name,
      { url: `${server.url}/v1/chat/conversations/${conversation.id}/messages`, cpuMicros: server.cpuMicros },
      {
        ...load,
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ senderId: 'alice', text: 'hello from the benchmark' }),
      },
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Several runs of one scenario as one: their means, and their counts added up. */
export function combine(name: string, runs: Measurement[]): Measurement {
  return {
    ...runs[0],
    name,
    requestsPerSecond: mean(runs.map((m) => m.requestsPerSecond)),
    p50: mean(runs.map((m) => m.p50)),
    p99: mean(runs.map((m) => m.p99)),
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

/** Measures both ways and prints the table, the ratio and the ≤ 10% target line. */
export async function runObservabilityBench(config: BenchConfig, load: LoadOptions): Promise<void> {
  const rounds = Math.max(1, Math.round(Number(process.env.BENCH_OBSERVABILITY_ROUNDS ?? 2)));
  const off: Measurement[] = [];
  const on: Measurement[] = [];
  for (let round = 0; round < rounds; round++) {
    // Off-on, then on-off (ABBA): a machine that slows down or speeds up during the run weighs on
    // both sides alike instead of always on the second one.
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const observed of order) (observed ? on : off).push(await measureOnce(config, load, observed));
  }
  const offAll = combine(`POST message, observability off (mean of ${rounds})`, off);
  const onAll = combine(`POST message, observability on (mean of ${rounds})`, on);
  for (const m of [offAll, onAll]) requireAllOk(m);
  const ratio = onAll.requestsPerSecond / offAll.requestsPerSecond;
  const overhead = 1 - ratio;
  const cpuOverhead = onAll.serverCpuPerRequest / offAll.serverCpuPerRequest - 1;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log('');
  console.log(formatTable([...off, ...on, offAll, onAll]));
  console.log('');
  console.log(`observability on / off (message POST req/s): ${pct(ratio)}   overhead ${pct(overhead)}`);
  console.log(`  same, from server CPU µs/req:              overhead ${pct(cpuOverhead)}`);
  console.log(
    `target: ≤ ${pct(MAX_OVERHEAD)} overhead   ${overhead <= MAX_OVERHEAD ? 'PASS' : 'ABOVE TARGET'} (req/s), ` +
      `${cpuOverhead <= MAX_OVERHEAD ? 'PASS' : 'ABOVE TARGET'} (CPU)`,
  );
}
