/**
 * The single executable (BENCH_ONLY=binary): its size, and how long `switchboard serve` takes from launch to its
 * first `/healthz` answer as the executable beside `node dist/switchboard.mjs serve` (the floor: the same code, not
 * bundled), on a new data folder; once with the carried files already unpacked (every start but the first) and
 * once into an empty cache folder (a first start). Plus `--version` both ways. Medians of BENCH_STARTUP_RUNS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchConfig } from './config.js';
import { alternatingStarts, medianCommand } from './startup.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist/switchboard.mjs');

const progress = (line: string) => process.stderr.write(`${line}\n`);

export async function runBinaryBench(config: BenchConfig): Promise<void> {
  const runs = config.startupRuns;
  const work = mkdtempSync(join(tmpdir(), 'switchboard-bench-binary-'));
  const binary = join(work, 'switchboard');
  try {
    progress('Building dist/ and the single executable …');
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
    execFileSync(process.execPath, ['--import', 'tsx', 'build/binary.ts', binary], { cwd: ROOT, stdio: 'ignore' });

    const serve = (port: number, dataDir: string) => ['serve', '--port', String(port), '--data-dir', dataDir];
    const warmCache = join(work, 'cache');
    const binaryEnv = (cache: string) => ({ PATH: '/usr/bin:/bin', HOME: work, SWITCHBOARD_CACHE_DIR: cache });
    progress(`Measuring start-up (${runs} alternating rounds) …`);
    const [node, warm, cold] = await alternatingStarts(runs, [
      { args: (port, dataDir) => [CLI, ...serve(port, dataDir)], fresh: true },
      { args: serve, fresh: true, launcher: { command: binary, env: () => binaryEnv(warmCache) } },
      {
        args: serve,
        fresh: true,
        launcher: { command: binary, env: () => binaryEnv(mkdtempSync(join(work, 'cold-cache-'))) },
      },
    ]);
    const nodeVersion = medianCommand(runs, [CLI, '--version']);
    const binaryVersion = medianCommand(runs, ['--version'], binaryEnv(warmCache), binary);

    const megabytes = statSync(binary).size / 1024 / 1024;
    const row = (label: string, value: number, floor: number, unit = 'ms') =>
      `${label.padEnd(52)} ${`${value.toFixed(0)} ${unit}`.padStart(8)}  node dist ${`${floor.toFixed(0)} ${unit}`.padStart(8)}  ×${(value / floor).toFixed(2)}`;
    console.log('');
    console.log(`Single executable: ${megabytes.toFixed(1)} MB (median of ${runs} whole-process runs)`);
    console.log(row('serve → first /healthz, files already unpacked', warm.ms, node.ms));
    console.log(row('serve → first /healthz, first start (unpacks them)', cold.ms, node.ms));
    console.log(row('resident memory at that moment, already unpacked', warm.rssMb, node.rssMb, 'MB'));
    console.log(row('switchboard --version', binaryVersion, nodeVersion));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
