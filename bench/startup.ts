/**
 * Start-up (BENCH_ONLY=startup): how long `switchboard serve` takes from launch to its first `/healthz` answer, on a
 * new and on an existing data folder, and its resident memory at that moment, against the bare stack (Express 5 and
 * better-sqlite3 in WAL mode, one route: bench/bare-stack.mjs); and how long the CLI takes for `--help` and for a
 * client command, against `node -e 0` (plus the same request). Whole processes, medians of BENCH_STARTUP_RUNS, on
 * the built `dist/` (built first).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timedServerLaunch, trackChild } from './child.js';
import type { BenchConfig } from './config.js';
import { percentile } from './report.js';
import { call } from './setup.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist/switchboard.mjs');
const BARE_STACK = join(ROOT, 'bench/bare-stack.mjs');
/** Targets (issues 15 and 28): ratios to the floor measured in the same run. */
const START_TARGET = 1.3;
/** Issue 28: the first API answer, and resident memory once it is given. */
const FIRST_API_TARGET = 1.5;
const MEMORY_TARGET = 1.4;
const CLI_TARGET = 1.5;

const progress = (line: string) => process.stderr.write(`${line}\n`);
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resident memory of a process in MB (Linux), or NaN elsewhere. */
function residentMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

interface StartSample {
  ms: number;
  rssMb: number;
  /** Launch to the answer of a first API request sent once `/healthz` answered (the server loads its runtime). */
  firstApiMs: number;
  /** Resident memory then. */
  firstApiRssMb: number;
}

/** Polls `/healthz` every 2 ms until it answers 200; fails if the process exits first or after 30 s. */
async function waitForHealth(url: string, child: ChildProcess, started: number): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${child.spawnargs.join(' ')} exited before answering /healthz`);
    const answered = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (answered) return;
    if (performance.now() - started > 30_000) throw new Error(`${child.spawnargs.join(' ')}: no /healthz within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** How to start a server: the program (default: this Node.js) and, for each start, its environment. */
export interface Launcher {
  command?: string;
  env?: () => NodeJS.ProcessEnv;
}

/** Launches a server process on a free port, times it to its first `/healthz` answer, then stops it. */
async function timeStart(args: (port: number) => string[], launcher: Launcher): Promise<StartSample> {
  const port = await freePort();
  const env = launcher.env?.() ?? process.env;
  const started = performance.now();
  const launch = timedServerLaunch(launcher.command ?? process.execPath, args(port));
  const child = spawn(launch.command, launch.args, { stdio: 'ignore', env });
  trackChild(child, { launchedPinned: true });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, child, started);
    const ms = performance.now() - started;
    const rssMb = residentMb(child.pid ?? 0);
    await fetch(`${url}/v1/projects`).then((res) => res.arrayBuffer());
    return { ms, rssMb, firstApiMs: performance.now() - started, firstApiRssMb: residentMb(child.pid ?? 0) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** One way of starting a server: its arguments, on a new data folder each start or on one existing folder. */
export interface StartVariant {
  args: (port: number, dataDir: string) => string[];
  fresh: boolean;
  launcher?: Launcher;
}

const medians = (samples: StartSample[]): StartSample => ({
  ms: median(samples.map((s) => s.ms)),
  rssMb: median(samples.map((s) => s.rssMb)),
  firstApiMs: median(samples.map((s) => s.firstApiMs)),
  firstApiRssMb: median(samples.map((s) => s.firstApiRssMb)),
});

/**
 * Starts each variant `runs` times, in alternating rounds (one start of each per round), and gives each variant's
 * medians. Measured one variant after the other, the same build read anything from ×1.53 to ×1.72 of the floor: this
 * machine's speed drifts over the minute a series takes, and alternating spreads the drift over every variant alike.
 */
export async function alternatingStarts(runs: number, variants: StartVariant[]): Promise<StartSample[]> {
  const existing = await Promise.all(variants.map(() => mkdtemp(join(tmpdir(), 'switchboard-startup-'))));
  try {
    // An existing folder: the first start creates and migrates it, unmeasured.
    for (const [i, variant] of variants.entries()) {
      if (!variant.fresh) await timeStart((port) => variant.args(port, existing[i]), variant.launcher ?? {});
    }
    const samples = variants.map((): StartSample[] => []);
    for (let round = 0; round < runs; round++) {
      for (const [i, variant] of variants.entries()) {
        const dataDir = variant.fresh ? await mkdtemp(join(tmpdir(), 'switchboard-startup-')) : existing[i];
        samples[i].push(await timeStart((port) => variant.args(port, dataDir), variant.launcher ?? {}));
        if (variant.fresh) await rm(dataDir, { recursive: true, force: true });
      }
    }
    return samples.map(medians);
  } finally {
    await Promise.all(existing.map((folder) => rm(folder, { recursive: true, force: true })));
  }
}

function timeCommand(args: string[], env: NodeJS.ProcessEnv = process.env, command = process.execPath): number {
  const started = performance.now();
  execFileSync(command, args, { stdio: 'ignore', env });
  return performance.now() - started;
}

export const medianCommand = (runs: number, args: string[], env?: NodeJS.ProcessEnv, command?: string) =>
  median(Array.from({ length: runs }, () => timeCommand(args, env, command)));

const verdict = (ratio: number, target: number) => (ratio <= target ? 'met' : 'NOT met');
const line = (label: string, value: string, floor: string, ratio: number, target: number) =>
  `${label.padEnd(44)} ${value.padStart(9)}  floor ${floor.padStart(9)}  ×${ratio.toFixed(2)} (target ≤ ×${target}: ${verdict(ratio, target)})`;

export async function runStartupBench(config: BenchConfig): Promise<void> {
  const runs = config.startupRuns;
  progress('Building dist/ for the start-up scenarios …');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });

  const serve = (port: number, dataDir: string) => [CLI, 'serve', '--port', String(port), '--data-dir', dataDir];
  const bare = (port: number, dataDir: string) => [BARE_STACK, dataDir, String(port)];
  progress(`Measuring start-up (${runs} alternating rounds) …`);
  const [bareNew, serveNew, serveExisting] = await alternatingStarts(runs, [
    { args: bare, fresh: true },
    { args: serve, fresh: true },
    { args: serve, fresh: false },
  ]);

  progress('Measuring the CLI …');
  const nodeBare = medianCommand(runs, ['-e', '0']);
  const help = medianCommand(runs, [CLI, '--help']);
  // A client command against a running server, beside `node -e 0` sending the same request.
  const dataDir = await mkdtemp(join(tmpdir(), 'switchboard-startup-'));
  const port = await freePort();
  const launch = timedServerLaunch(process.execPath, serve(port, dataDir));
  const server = spawn(launch.command, launch.args, { stdio: 'ignore' });
  trackChild(server, { launchedPinned: true });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, server, performance.now());
    // Signed in once, unmeasured: `projects list` then sends one authenticated request.
    const account = { email: 'startup@example.com', password: 'startup-password-1' };
    await call(url, 'POST', '/v1/auth/register', account);
    const cliEnv = { ...process.env, HOME: dataDir, XDG_CONFIG_HOME: join(dataDir, 'config'), SWITCHBOARD_URL: url };
    execFileSync(process.execPath, [CLI, 'login', '--email', account.email, '--password', account.password], {
      stdio: 'ignore',
      env: cliEnv,
    });
    const fetchFloor = medianCommand(runs, ['--input-type=module', '-e', `await fetch('${url}/v1/projects')`]);
    const clientCommand = medianCommand(runs, [CLI, 'projects', 'list'], cliEnv);

    console.log('');
    console.log(
      `Start-up (medians of ${runs} alternating rounds of whole processes; the floor is the bare stack's, new data folder)`,
    );
    // Every Node.js process then reads and parses that file before it runs anything, the floors' as much: 31% of
    // serve's instructions to its first API answer for Debian's bundle (callgrind), which brings every ratio nearer 1.
    if (process.env.NODE_EXTRA_CA_CERTS)
      console.log(
        `(NODE_EXTRA_CA_CERTS is set, to ${process.env.NODE_EXTRA_CA_CERTS}: each process, the floors' too, parses it first.)`,
      );
    const startLine = (label: string, s: { ms: number }) =>
      line(label, `${s.ms.toFixed(0)} ms`, `${bareNew.ms.toFixed(0)} ms`, s.ms / bareNew.ms, START_TARGET);
    console.log(startLine('serve → first /healthz, new data folder', serveNew));
    console.log(startLine('serve → first /healthz, existing data folder', serveExisting));
    // The first API request, sent once /healthz answered: the server's runtime must be loaded to answer it; the bare
    // stack answers it (404) from the same Express app.
    const firstApiLine = (label: string, s: { firstApiMs: number }) =>
      line(
        label,
        `${s.firstApiMs.toFixed(0)} ms`,
        `${bareNew.firstApiMs.toFixed(0)} ms`,
        s.firstApiMs / bareNew.firstApiMs,
        FIRST_API_TARGET,
      );
    console.log(firstApiLine('serve → first API answer, new data folder', serveNew));
    console.log(firstApiLine('serve → first API answer, existing folder', serveExisting));
    const memoryLine = (label: string, s: { firstApiRssMb: number }) =>
      line(
        label,
        `${s.firstApiRssMb.toFixed(0)} MB`,
        `${bareNew.firstApiRssMb.toFixed(0)} MB`,
        s.firstApiRssMb / bareNew.firstApiRssMb,
        MEMORY_TARGET,
      );
    console.log(memoryLine('resident memory then, new data folder', serveNew));
    console.log(memoryLine('resident memory then, existing folder', serveExisting));
    console.log(
      line('switchboard --help', `${help.toFixed(0)} ms`, `${nodeBare.toFixed(0)} ms`, help / nodeBare, CLI_TARGET),
    );
    console.log(
      line(
        'switchboard projects list (one request)',
        `${clientCommand.toFixed(0)} ms`,
        `${fetchFloor.toFixed(0)} ms`,
        clientCommand / fetchFloor,
        CLI_TARGET,
      ),
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}
