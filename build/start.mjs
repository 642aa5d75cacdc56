#!/usr/bin/env node
// `npm start [-- <serve options>]`: `switchboard serve` from the built tree, after building whatever changed since
// the last build (on an unchanged tree that is a look at each input's time, a few milliseconds).
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt, SERVE_STEPS } from './build.mjs';

const cli = join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'switchboard.mjs');

/** Whether the process `pid` still runs (EPERM: it does, as someone else's). */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/**
 * npm runs this through a shell (`sh -c` on POSIX, cmd.exe on Windows) and passes SIGTERM and SIGINT to that shell
 * only. Debian's sh (dash) does not exec its one command: it dies of the signal, npm exits with it, and this process
 * would go on serving with no parent. So, run by npm, stop as on SIGTERM once the shell is gone: the parent's id
 * changes (POSIX hands orphans to init) or it no longer runs (Windows keeps the id). A 200 ms look at the parent is
 * nothing next to a server's work. (`exec node …` in the script would spare the look on POSIX but break cmd.exe.)
 */
function stopWithParent() {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent && isRunning(parent)) return;
    // Still starting (serve listens for signals once it serves): look again at the next tick.
    if (process.listenerCount('SIGTERM') === 0) return;
    clearInterval(timer);
    // emit, not kill: on Windows a signal sent to oneself ends the process at once, without the server's shutdown.
    process.emit('SIGTERM', 'SIGTERM');
  }, 200);
  timer.unref();
}

await ensureBuilt(SERVE_STEPS);
if (process.env.npm_lifecycle_event === 'start') stopWithParent();
// In this process rather than a child: one Node.js start, and signals sent to it reach the server directly.
process.argv.splice(1, 1, cli, 'serve');
await import(pathToFileURL(cli).href);
