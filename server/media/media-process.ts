/**
 * The server's side of its media process (main.ts): forks it, speaks protocol.ts with it, starts it again when it
 * exits unexpectedly, and stops it on close. A child process rather than a worker thread: its CPU and memory are its
 * own to measure and cap, a crash in werift takes media down and not the API, and its garbage collections do not
 * pause the HTTP loop (docs/architecture.md, "Media: the SFU").
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import type { Logger } from 'pino';
import type { MediaProcessEntry } from '../app-files/app-files.js';
import { type MediaReply, type MediaRequest, mediaReply } from './protocol.js';

/** A process that lived less than this before exiting counts as failing at start: the next start waits longer. */
const QUICK_EXIT_MS = 10_000;
const MAX_RESTART_DELAY_MS = 10_000;

export interface MediaProcessOptions {
  entry: MediaProcessEntry;
  /** The UDP port of all its peer connections; 0 for one the system picks (again at each restart). */
  udpPort: number;
  /** The addresses its descriptions announce instead of its interfaces' (announced-address.ts); none: those. */
  announcedAddresses?: readonly string[];
  logger: Logger;
  /** Every reply but `ready` and `log`, which this module handles. */
  onReply(reply: Exclude<MediaReply, { type: 'ready' | 'log' }>): void;
  /** A new media process is ready after the last one exited: it holds nothing of what the last one held. */
  onRestart(): void;
  /** Forks once this settles: the exit of a process stopped before it, whose UDP port it takes over. */
  startAfter?: Promise<void>;
}

export interface MediaProcess {
  /** Sent once the process is ready; held meanwhile (during a restart too). */
  send(request: MediaRequest): void;
  /** Whether a process runs and has said `ready` (requests sent now are not held). */
  ready(): boolean;
  /** The current process's id, if one is running. */
  pid(): number | undefined;
  /** Stops the process and starts no other; resolves once it has exited. */
  close(): Promise<void>;
}

export function startMediaProcess({
  entry,
  udpPort,
  announcedAddresses = [],
  logger,
  onReply,
  onRestart,
  startAfter,
}: MediaProcessOptions): MediaProcess {
  let child: ChildProcess | undefined;
  let ready = false;
  let held: MediaRequest[] = [];
  let stopped = false;
  let quickExits = 0;
  let restartTimer: NodeJS.Timeout | undefined;

  function start(restarted: boolean): void {
    if (stopped) return;
    const startedAt = performance.now();
    const forked = fork(entry.module, [String(udpPort), announcedAddresses.join(',')], {
      execArgv: entry.execArgv,
      ...(entry.env && { env: { ...process.env, ...entry.env } }),
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child = forked;
    ready = false;
    forked.on('message', (message: unknown) => {
      const parsed = mediaReply.safeParse(message);
      if (!parsed.success) {
        logger.error({ err: parsed.error }, 'the media process sent a message that is not of its protocol');
        return;
      }
      const reply = parsed.data;
      if (reply.type === 'log') logger[reply.level](reply.message);
      else if (reply.type !== 'ready') onReply(reply);
      else {
        ready = true;
        logger.info(
          { pid: forked.pid, udpPort: reply.udpPort },
          `the media process is ready (pid ${forked.pid}, media on UDP port ${reply.udpPort})`,
        );
        for (const request of held) forked.send(request);
        held = [];
        if (restarted) onRestart();
      }
    });
    forked.on('error', (err) => logger.error({ err }, 'the media process failed'));
    forked.on('exit', (code, signal) => {
      if (child === forked) child = undefined;
      if (stopped) return;
      quickExits = performance.now() - startedAt < QUICK_EXIT_MS ? quickExits + 1 : 0;
      // Once at once; then, while it keeps failing at start, after 0.1, 0.2, 0.4 … up to 10 s.
      const delay = quickExits <= 1 ? 0 : Math.min(100 * 2 ** (quickExits - 2), MAX_RESTART_DELAY_MS);
      logger.warn(
        { code, signal },
        `the media process exited (${signal ?? `code ${code}`}); starting it again${delay ? ` in ${delay} ms` : ''}`,
      );
      // What was held for it, or sent to it, concerned the media it held: it is gone.
      held = [];
      restartTimer = setTimeout(() => start(true), delay);
    });
  }

  if (startAfter === undefined) start(false);
  else void startAfter.then(() => start(false));
  return {
    send(request) {
      // Stopped: a socket whose close comes after the server's (a client late to answer its close frame) has
      // nothing left to leave, and the closed channel would throw.
      if (stopped) return;
      if (child?.connected && ready) child.send(request);
      else held.push(request);
    },
    ready: () => ready && child?.connected === true,
    pid: () => child?.pid,
    async close() {
      stopped = true;
      clearTimeout(restartTimer);
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = once(running, 'exit');
      // It exits when its channel closes (main.ts); the signal is for one stuck in a loop.
      if (running.connected) running.disconnect();
      const stuck = setTimeout(() => running.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(stuck);
    },
  };
}
