/**
 * What OpenTelemetry tracing costs the chat message POST: the same load against the server without any OTEL_*
 * variable and with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a collector of this process's on loopback (every span
 * sampled and exported, OTLP/HTTP protobuf, the default), in off-on, on-off order over BENCH_TRACING_ROUNDS rounds
 * (default 2), each on a fresh data dir. The collector counts the spans it receives and answers at once. Run alone
 * with `BENCH_ONLY=tracing npm run bench`.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countSpans } from '../test/support/otlp-protobuf.js';
import { spawnServer } from './child.js';
import type { BenchConfig } from './config.js';
import type { LoadOptions, Measurement } from './load.js';
import { compareOffOn, measureMessagePost } from './off-on.js';

/** Tracing every request may cost at most this share of message POST throughput. */
export const MAX_OVERHEAD = 0.1;

/** A collector that takes exports and counts their spans, without parsing them (this process also makes the load). */
async function startCollector() {
  let spans = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.headers['content-type']?.startsWith('application/json')) {
        // Each span has one `"spanId"` (its parent's is `"parentSpanId"`).
        spans += body.toString('utf8').split('"spanId"').length - 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        spans += countSpans(body);
        // An empty ExportTraceServiceResponse.
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      }
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
    return await measureMessagePost(server, `POST message, tracing ${collector ? 'on' : 'off'}`, load);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Measures both ways and prints the table, the ratio and the ≤ 10% target line. */
export async function runTracingBench(config: BenchConfig, load: LoadOptions): Promise<void> {
  const collector = await startCollector();
  try {
    await compareOffOn({
      feature: 'tracing',
      scenario: 'POST message',
      rounds: Math.max(1, Math.round(Number(process.env.BENCH_TRACING_ROUNDS ?? 2))),
      maxOverhead: MAX_OVERHEAD,
      measureOnce: (traced) => measureOnce(config, load, traced ? collector.url : undefined),
      notes: () => [`spans received by the collector: ${collector.spans()}`],
    });
  } finally {
    await collector.close();
  }
}
