import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CpuReply, CpuRequest, HeapReply, HeapRequest, ReadyMessage, ServerKind } from './servers.js';

const SERVERS_SCRIPT = fileURLToPath(new URL('./servers.ts', import.meta.url));
/** Absolute, so that the child finds tsx whatever the working directory. */
const TSX_LOADER = import.meta.resolve('tsx');
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

export interface ServerProcess {
  url: string;
  /** The server process's id (bench/sfu.ts finds the media process among its children). */
  pid: number;
  /** CPU time the server process has used so far, in microseconds (all its threads). */
  cpuMicros(): Promise<number>;
  /**
   * The server's heap in use, resident memory, and resident memory outside the V8 heap (the native side: sockets,
   * SQLite, and what the C allocator keeps of memory freed) after a full garbage collection, in bytes.
   */
  memory(): Promise<{ heap: number; rss: number; outsideHeap: number }>;
  /** Asks the server to close, then kills it if it has not exited within a few seconds. */
  stop(): Promise<void>;
}

/** Every server process not yet known to have exited, so that an interrupted run can kill them. */
const live = new Set<ChildProcess>();

/**
 * Adds another benchmark child process (e.g. bench/subscribers.ts) to those `killAllServers` kills; with pinning,
 * it runs where the load generator does, unless it was launched on its CPU already (`timedServerLaunch`).
 */
export function trackChild(child: ChildProcess, { launchedPinned = false } = {}): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (pinning && !launchedPinned) pin(child.pid, pinning.client);
}

/**
 * How to launch a server process whose start is timed (bench/startup.ts): with pinning, under `taskset` on the servers'
 * CPU from its first instruction. Pinned after it started, it would begin on this process's CPU, beside the loop
 * that polls it, and the `taskset` run would hold that loop up meanwhile.
 */
export function timedServerLaunch(command: string, args: string[]): { command: string; args: string[] } {
  return pinning ? { command: 'taskset', args: ['-c', pinning.server, command, ...args] } : { command, args };
}

/** Set by `pinProcesses` (BENCH_PIN=1): the CPU for server processes, and the one for everything else. */
let pinning: { server: string; client: string } | undefined;

/**
 * From now on, server processes run on CPU 0 and this process and the other benchmark processes on CPU 1 (Linux,
 * `taskset`). The server then has a core to itself, as the figures assume; left to the scheduler, processes move
 * between the two cores and the same run varies by ±15% from one time to the next.
 */
export function pinProcesses(): void {
  pinning = { server: '0', client: '1' };
  pin(process.pid, pinning.client);
}

/** Pins every thread of the process to the CPU. */
function pin(pid: number | undefined, cpu: string): void {
  if (pid === undefined) return;
  execFileSync('taskset', ['-a', '-p', '-c', cpu, String(pid)], { stdio: 'ignore' });
}

/** Absolute URL of the tsx loader, for other forked benchmark processes. */
export const TSX_IMPORT = TSX_LOADER;

/** Synchronous last resort for exit paths that cannot wait (Ctrl-C, uncaught errors). */
export function killAllServers(): void {
  for (const child of live) child.kill('SIGKILL');
}

/**
 * Starts `bench/servers.ts <kind>` in its own Node process (under tsx, as `npm run bench` runs us)
 * and resolves with its URL once it listens. `cpuProfDir` adds `--cpu-prof`, for investigations.
 */
export function spawnServer(kind: ServerKind, args: string[] = [], cpuProfDir?: string): Promise<ServerProcess> {
  const profiling = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [];
  const child = fork(SERVERS_SCRIPT, [kind, ...args], {
    // --expose-gc changes nothing until `heapBytes` asks for a collection. Without V8's memory reducer, a server does
    // not collect garbage because it went quiet: the benchmarks measure two servers in turn on one CPU, and a full
    // collection of the one just measured (5–14 ms) landed in the other's rounds, a stall of its fan-out p99.
    execArgv: ['--import', TSX_LOADER, '--expose-gc', '--no-memory-reducer', ...profiling],
    // The server's own output (a crash, a warning) goes straight to our terminal.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  live.add(child);
  if (pinning) pin(child.pid, pinning.server);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      live.delete(child);
      resolve();
    });
  });

  const stop = async () => {
    if (!live.has(child)) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };

  /** Sends a request and resolves with the server's reply of the same type. */
  const ask = <R extends CpuReply | HeapReply>(request: CpuRequest | HeapRequest) =>
    new Promise<R>((resolve, reject) => {
      const onReply = (message: ReadyMessage | R) => {
        if (message.type !== request.type) return;
        child.off('message', onReply);
        resolve(message as R);
      };
      child.on('message', onReply);
      child.send(request, (err) => err && reject(err));
      // Settling twice is harmless: this only matters if the server dies before it answers.
      void exited.then(() => reject(new Error(`The ${kind} server exited.`)));
    });
  const cpuMicros = async () => (await ask<CpuReply>({ type: 'cpu' })).micros;
  const memory = async () => {
    const { bytes, rss, heapCommitted } = await ask<HeapReply>({ type: 'heap' });
    return { heap: bytes, rss, outsideHeap: rss - heapCommitted };
  };

  return new Promise<ServerProcess>((resolve, reject) => {
    const onReady = (message: ReadyMessage | CpuReply | HeapReply) => {
      if (message.type !== 'ready') return;
      settle();
      resolve({ url: message.url, pid: child.pid ?? 0, cpuMicros, memory, stop });
    };
    const fail = (reason: string) => {
      settle();
      void stop().finally(() => reject(new Error(`The ${kind} server did not start: ${reason}.`)));
    };
    const onError = (err: Error) => fail(err.message);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(`it exited (${signal ?? `code ${code}`})`);
    const timer = setTimeout(() => fail(`no URL within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    // Whichever comes first wins; the others must not fire later (say, on a normal stop).
    const settle = () => {
      clearTimeout(timer);
      child.off('message', onReady).off('error', onError).off('exit', onExit);
    };
    child.on('message', onReady).once('error', onError).once('exit', onExit);
  });
}
