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
import type { LoadOptions, Measurement } from './load.js';
import { compareOffOn, measureMessagePost } from './off-on.js';

/** Recording may cost at most this share of message POST throughput. */
export const MAX_OVERHEAD = 0.1;

async function measureOnce(config: BenchConfig, load: LoadOptions, observed: boolean): Promise<Measurement> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-obs-'));
  const server = await spawnServer(observed ? 'switchboard' : 'switchboard-unobserved', [dataDir], config.cpuProfDir);
  try {
    return await measureMessagePost(server, `POST message, observability ${observed ? 'on' : 'off'}`, load);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Measures both ways and prints the table, the ratio and the ≤ 10% target line. */
export async function runObservabilityBench(config: BenchConfig, load: LoadOptions): Promise<void> {
  await compareOffOn({
    feature: 'observability',
    scenario: 'POST message',
    rounds: Math.max(1, Math.round(Number(process.env.BENCH_OBSERVABILITY_ROUNDS ?? 2))),
    maxOverhead: MAX_OVERHEAD,
    measureOnce: (observed) => measureOnce(config, load, observed),
  });
}
