import { performance } from 'node:perf_hooks';
import type { WebSocket } from 'ws';
import { type SharedFrame, sendShared, sharedFrame } from '../../http/shared-frame.js';
import { readyToSend } from '../../http/socket-endpoint.js';
import type { MetricSink } from '../../metrics/sink.js';

/** Where an event can go: a socket, and whose it is (some events skip their own user's sockets). */
export interface Recipient {
  socket: WebSocket;
  userId: string;
}

/** An event serialized once, shared by every socket it goes to. */
interface EncodedEvent {
  seq: number;
  bytes: Buffer;
}

/**
 * Events broadcast to one set of recipients (minus one user's) during one wait between flushes, in order. The set
 * must not change afterwards: the audience hands out sets it copies before changing them (audience.ts).
 */
interface Run {
  id: number;
  recipients: ReadonlySet<Recipient>;
  except: string | undefined;
  events: EncodedEvent[];
  /** The events as one frame, built at the first socket that needs it (when sockets hear several runs). */
  frame?: SharedFrame;
}

const NEWLINE = Buffer.from('\n');
/**
 * Once the outbox is behind, flushes are at least this far apart: about one display frame, so no client could show
 * the events sooner, while each socket write carries more of them.
 */
const MIN_FLUSH_GAP_MS = 16;
/** While events keep coming, the wait after a flush, per ms the flush took: fan-out gets at most a quarter of the process. */
const GAP_PER_FLUSH_MS = 3;

const joinEvents = (events: EncodedEvent[]) =>
  events.length === 1
    ? events[0].bytes
    : Buffer.concat(events.flatMap((e, i) => (i === 0 ? [e.bytes] : [NEWLINE, e.bytes])));

/**
 * Everything the realtime hub sends goes through here, so that a burst of events leaves as one
 * WebSocket frame and one socket write per client rather than one per event: with 1,000 members
 * connected, each write is a system call (and, on loopback, the receiver's TCP work too), and
 * those writes were most of a message POST's cost.
 *
 * A frame carries one event, or several separated by `\n` (JSON text never holds a raw newline).
 * A broadcast costs the same whatever the audience: it joins the run of events for that audience,
 * and the work per recipient happens once per flush, not once per event. Events queued during one
 * turn of the event loop leave together at its end. After a flush that took T ms, the next one waits
 * 3T while events keep coming (several queued, or the last flush behind), so fan-out takes at most
 * about a quarter of the process; a lone event goes at once. The outbox is behind when events had to
 * wait for that gap (they come faster than it can flush them one by one); only then does the next
 * flush also wait for the 16 ms floor, so that more events share each frame. Under load, waiting 2T
 * rather than T raised message throughput with 1,000 members online by a quarter, and 3T rather than
 * 2T cut a message's server CPU there from 350 to 228–263 µs (to clients without compression; from
 * 252 to 236–240 µs with it), for events that wait one flush longer (at 1,000 members, T is 5–10 ms);
 * the 16 ms floor rather than 5 ms cut the CPU of a message POST with 100 online by a sixth. A message
 * into a quiet server, even one that came a moment after the last, leaves at once with no pacing delay.
 * Each socket gets its events in the order they were queued.
 */
export function createRealtimeOutbox(metrics?: Pick<MetricSink, 'realtimeFramesSent'>) {
  let runs: Run[] = [];
  /** This wait's open runs, by recipient set, then by the user they skip. */
  let openRuns = new Map<ReadonlySet<Recipient>, Map<string | undefined, Run>>();
  let seq = 0;
  let runIds = 0;
  let scheduled: { cancel(): void } | undefined;
  let notBefore = 0;
  /** Events queued since the last flush. */
  let queued = 0;
  /** Whether the last flush was behind: events are coming faster than the outbox flushes them one by one. */
  let lastBehind = false;
  /** Whether the events now queued had to wait for the gap after the last flush: the outbox is behind. */
  let behind = false;

  function schedule(): void {
    if (scheduled) return;
    const immediate = setImmediate(flushOrWait);
    scheduled = { cancel: () => clearImmediate(immediate) };
  }

  /**
   * At the end of the turn that queued the events. Pacing batches events that keep coming, so it waits only for those:
   * when several are queued, or the last flush was behind. A lone event goes at once: holding it back would batch
   * nothing and only delay it (a message to 10,000 members online, paced, reached them in p50 282 ms against a raw
   * `ws` broadcast's 47; at once, in 45–50 ms, BENCH_ONLY=sockets10k).
   */
  function flushOrWait(): void {
    const wait = notBefore - performance.now();
    if (wait > 0 && (queued > 1 || lastBehind)) {
      behind = true;
      const timer = setTimeout(flush, wait);
      scheduled = { cancel: () => clearTimeout(timer) };
    } else flush();
  }

  function broadcast(recipients: ReadonlySet<Recipient>, event: EncodedEvent, except?: string): void {
    let byExcept = openRuns.get(recipients);
    if (!byExcept) {
      byExcept = new Map();
      openRuns.set(recipients, byExcept);
    }
    let run = byExcept.get(except);
    if (!run) {
      run = { id: runIds++, recipients, except, events: [] };
      byExcept.set(except, run);
      runs.push(run);
    }
    run.events.push(event);
    queued++;
    schedule();
  }

  function flush(): void {
    scheduled = undefined;
    queued = 0;
    const started = performance.now();
    const due = runs;
    runs = [];
    openRuns = new Map();
    if (due.length === 1) sendRun(due[0]);
    else sendRuns(due);
    const finished = performance.now();
    const gap = GAP_PER_FLUSH_MS * (finished - started);
    notBefore = finished + (behind ? Math.max(MIN_FLUSH_GAP_MS, gap) : gap);
    lastBehind = behind;
    behind = false;
  }

  /** The usual flush (one conversation busy, its audience unchanged): one frame for every recipient. */
  function sendRun(run: Run): void {
    const frame = sharedFrame(joinEvents(run.events));
    let sent = 0;
    for (const { socket, userId } of run.recipients) {
      if (userId !== run.except && readyToSend(socket)) {
        sendShared(socket, frame);
        sent++;
      }
    }
    metrics?.realtimeFramesSent(sent);
  }

  function sendRuns(due: Run[]): void {
    // The runs each socket hears, in the order they were opened.
    const runsBySocket = new Map<WebSocket, Run[]>();
    for (const run of due) {
      for (const { socket, userId } of run.recipients) {
        if (userId === run.except) continue;
        const socketRuns = runsBySocket.get(socket);
        if (socketRuns) socketRuns.push(run);
        else runsBySocket.set(socket, [run]);
      }
    }
    // Members of the same conversations hear the same runs: each distinct frame is built once.
    const merged = new Map<string, SharedFrame>();
    let sent = 0;
    for (const [socket, socketRuns] of runsBySocket) {
      if (!readyToSend(socket)) continue;
      sent++;
      let frame: SharedFrame;
      if (socketRuns.length === 1) {
        const [run] = socketRuns;
        run.frame ??= sharedFrame(joinEvents(run.events));
        frame = run.frame;
      } else {
        const key = socketRuns.map((run) => run.id).join(',');
        let joined = merged.get(key);
        if (!joined) {
          joined = sharedFrame(joinEvents(socketRuns.flatMap((run) => run.events).sort((a, b) => a.seq - b.seq)));
          merged.set(key, joined);
        }
        frame = joined;
      }
      sendShared(socket, frame);
    }
    metrics?.realtimeFramesSent(sent);
  }

  return {
    /** Serializes a message once, for any number of `push`es and `broadcast`s. */
    encode(message: unknown): EncodedEvent {
      return { seq: seq++, bytes: Buffer.from(JSON.stringify(message)) };
    },

    /** Queues the event for one recipient. */
    push(recipient: Recipient, event: EncodedEvent): void {
      broadcast(new Set([recipient]), event);
    },

    /** Queues the event for every recipient in the set, except the sockets of user `except`. */
    broadcast,

    close(): void {
      scheduled?.cancel();
      scheduled = undefined;
      behind = false;
      lastBehind = false;
      queued = 0;
      runs = [];
      openRuns = new Map();
    },
  };
}

export type RealtimeOutbox = ReturnType<typeof createRealtimeOutbox>;
