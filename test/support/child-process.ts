/**
 * A long-running program the tests start as a child process (Redis, HAProxy, a `switchboard serve` node): its output
 * kept for the error that says why it did not start, a wait for readiness that fails at once when it exits, and a
 * stop that waits for the exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';

/** Output kept per child: enough for the lines that say why it failed, bounded for a node logging every request. */
const KEPT_OUTPUT = 64 * 1024;
/** How long a child has to exit on its own after a polite signal before it is killed. */
const EXIT_GRACE_MS = 5_000;
/** How often a readiness check is tried again (an interval between attempts, not a wait for anything). */
const POLL_MS = 25;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartedChild {
  readonly process: ChildProcess;
  readonly pid: number | undefined;
  /** The last of what it printed on stdout and stderr, interleaved. */
  output(): string;
  /** Set once it has exited. */
  readonly exit: Exit | undefined;
  exited: Promise<Exit>;
  /** Sends `signal` and waits for the exit; SIGKILL follows when a polite signal is not obeyed in time. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/**
 * Children still running: killed when this test process exits however it exits (a failed test, a thrown hook), so
 * that none outlives the run holding a port. Only a SIGKILL of the test process itself escapes this.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function startChild(
  name: string,
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): StartedChild {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > KEPT_OUTPUT) output = output.slice(-KEPT_OUTPUT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    // 'error' without a later 'close' is a spawn that failed (no such program): it counts as an exit.
    child.once('error', (err) => {
      keep(Buffer.from(`\n${name}: ${err.message}\n`));
      exit ??= { code: null, signal: null };
      running.delete(child);
      resolve(exit);
    });
    child.once('close', (code, signal) => {
      exit ??= { code, signal };
      running.delete(child);
      resolve(exit);
    });
  });
  return {
    process: child,
    pid: child.pid,
    output: () => output,
    get exit() {
      return exit;
    },
    exited,
    async stop(signal = 'SIGTERM') {
      if (exit) return exit;
      child.kill(signal);
      if (signal === 'SIGKILL') return exited;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, EXIT_GRACE_MS);
      });
      await Promise.race([exited, late]);
      clearTimeout(timer);
      if (!exit) child.kill('SIGKILL');
      return exited;
    },
  };
}

/**
 * Tries `check` until it answers true, failing at once, with what the child printed, if the child exits first, and
 * after `timeoutMs` if it never does.
 */
export async function waitUntilReady(
  child: StartedChild,
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exit)
      throw new Error(
        `${what} exited (code ${child.exit.code}, signal ${child.exit.signal}) before it was ready:\n${child.output()}`,
      );
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} was not ready within ${timeoutMs} ms:\n${child.output()}`);
    await Promise.race([child.exited, new Promise((resolve) => setTimeout(resolve, POLL_MS))]);
  }
}
