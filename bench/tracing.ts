/**
 * What OpenTelemetry tracing costs the chat message POST: the same load against the server without any OTEL_*
 * variable and with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a collector of this process's on loopback (every span
 * sampled and exported, OTLP/HTTP JSON), in off-on, on-off order over BENCH_TRACING_ROUNDS rounds (default 2), each
 * on a fresh data dir. The collector counts the spans it receives and answers at once. Run alone with
 * `BENCH_ONLY=tracing npm run bench`.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer } from './child.js';
import type { BenchConfig } from './config.js';
import { type LoadOptions, type Measurement, measure, requireAllOk } from './load.js';
import { combine } from './observability.js';
import { formatTable } from './report.js';
import { call, createCredentials } from './setup.js';

/** Tracing every request may cost at most this share of message POST throughput. */
export const MAX_OVERHEAD = 0.1;

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** A collector that takes exports and counts their spans, without parsing them (this process also makes the load). */
async function startCollector() {
  let spans = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => {
      // Each span has one `"spanId"` (its parent's is `"parentSpanId"`).
      spans += text.split('"spanId"').length - 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function measureOnce(
  config: BenchConfig,
  load: LoadOptions,
  collector: string | undefined,
): Promise<Measurement> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-tracing-'));
  const server = collector
    ? await spawnServer('switchboard-traced', [dataDir, collector], config.cpuProfDir)
    : await spawnServer('switchboard', [dataDir], config.cpuProfDir);
  try {
    const { apiKey } = await createCredentials(server.url);
    const conversation = await call<{ id: string }>(
      server.url,
      'POST',
      '/v1/chat/conversations',
      { name: 'bench', members: [{ userId: 'alice' }] },
      apiKey,
    );
    const name = `POST message, tracing ${collector ? 'on' : 'off'}`;
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

/** Measures both ways and prints the table, the ratio and the ≤ 10% target line. */
export async function runTracingBench(config: BenchConfig, load: LoadOptions): Promise<void> {
  const rounds = Math.max(1, Math.round(Number(process.env.BENCH_TRACING_ROUNDS ?? 2)));
  const collector = await startCollector();
  const off: Measurement[] = [];
  const on: Measurement[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      // ABBA, as bench/observability.ts: a machine that drifts weighs on both sides alike.
      const order = round % 2 === 0 ? [false, true] : [true, false];
      for (const traced of order)
        (traced ? on : off).push(await measureOnce(config, load, traced ? collector.url : undefined));
    }
  } finally {
    await collector.close();
  }
  const offAll = combine(`POST message, tracing off (mean of ${rounds})`, off);
  const onAll = combine(`POST message, tracing on (mean of ${rounds})`, on);
  for (const m of [offAll, onAll]) requireAllOk(m);
  const ratio = onAll.requestsPerSecond / offAll.requestsPerSecond;
  const overhead = 1 - ratio;
  const cpuOverhead = onAll.serverCpuPerRequest / offAll.serverCpuPerRequest - 1;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log('');
  console.log(formatTable([...off, ...on, offAll, onAll]));
  console.log('');
  console.log(`spans received by the collector: ${collector.spans()} (${onAll.responses} traced requests)`);
  console.log(`tracing on / off (message POST req/s): ${pct(ratio)}   overhead ${pct(overhead)}`);
  console.log(`  same, from server CPU µs/req:        overhead ${pct(cpuOverhead)}`);
  console.log(
    `target: ≤ ${pct(MAX_OVERHEAD)} overhead   ${overhead <= MAX_OVERHEAD ? 'PASS' : 'ABOVE TARGET'} (req/s), ` +
      `${cpuOverhead <= MAX_OVERHEAD ? 'PASS' : 'ABOVE TARGET'} (CPU)`,
  );
}
