/**
 * The server's media processes (`rtc.processes`, `serve --rtc-media-processes`): each started when a room first needs
 * it and stopped when it has held no room for a while, each holding whole rooms on a UDP port of its own. A room is
 * placed at its first join on the least loaded process and stays there while it has participants; a process that
 * dies ends its own rooms' media only (docs/architecture.md, "Media: the SFU", Process layout).
 */
import type { Logger } from 'pino';
import type { MediaProcessEntry } from '../app-files/app-files.js';
import { type MediaProcess, type MediaProcessOptions, startMediaProcess } from './media-process.js';
import type { MediaRequest } from './protocol.js';

/**
 * How long a media process holding no room lives on: long enough that a participant reloading its page or a call
 * started again finds it running (its start, werift's loading, takes 1–3 s on a busy machine), short enough that a server whose
 * call ended gives its memory back.
 */
export const MEDIA_PROCESS_IDLE_STOP_MS = 30_000;

export interface MediaPoolOptions extends Pick<MediaProcessOptions, 'onReply' | 'announcedAddresses'> {
  entry: MediaProcessEntry;
  /** How many processes at most; rooms spread over them. */
  processes: number;
  /** The first process's UDP port, the next ones' consecutive after it; 0 for ports the system picks. */
  udpPort: number;
  logger: Logger;
  /** A process was started again after it exited: these rooms, which it held, hold nothing now. */
  onRestart(rooms: ReadonlySet<string>): void;
  idleStopMs?: number;
}

export interface MediaPool {
  /** To the process holding the request's room; a `join` places a room that has none. */
  send(request: MediaRequest): void;
  /** Whether the room is placed on a process that runs and said `ready` (its requests are answered, not held). */
  ready(room: string): boolean;
  /** The running processes' ids. */
  pids(): number[];
  /** Stops every process and starts no other; resolves once they have exited. */
  close(): Promise<void>;
}

interface Slot {
  index: number;
  udpPort: number;
  process?: MediaProcess;
  /** The rooms placed here, with their connections. */
  rooms: Map<string, Set<string>>;
  idleTimer?: NodeJS.Timeout;
  /** The exit of the process last stopped for being idle: the next one binds its port after it. */
  stopped?: Promise<void>;
}

export function createMediaPool({
  entry,
  processes,
  udpPort,
  announcedAddresses,
  logger,
  onReply,
  onRestart,
  idleStopMs = MEDIA_PROCESS_IDLE_STOP_MS,
}: MediaPoolOptions): MediaPool {
  const slots: Slot[] = Array.from({ length: processes }, (_, index) => ({
    index,
    udpPort: udpPort && udpPort + index,
    rooms: new Map(),
  }));
  const placed = new Map<string, Slot>();
  let closed = false;

  const participantsOf = (slot: Slot) => [...slot.rooms.values()].reduce((sum, conns) => sum + conns.size, 0);
  /** The fewest participants, then the fewest rooms, then the first: one process until a second room comes. */
  function leastLoaded(): Slot {
    let best = slots[0];
    for (const slot of slots.slice(1)) {
      const load = participantsOf(slot) - participantsOf(best) || slot.rooms.size - best.rooms.size;
      if (load < 0) best = slot;
    }
    return best;
  }

  function processOf(slot: Slot): MediaProcess {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    slot.process ??= startMediaProcess({
      entry,
      udpPort: slot.udpPort,
      announcedAddresses,
      logger: processes > 1 ? logger.child({ mediaProcess: slot.index + 1 }) : logger,
      onReply,
      onRestart: () => onRestart(new Set(slot.rooms.keys())),
      startAfter: slot.stopped,
    });
    return slot.process;
  }

  function stopWhenIdle(slot: Slot): void {
    slot.idleTimer = setTimeout(() => {
      const running = slot.process;
      slot.process = undefined;
      if (!running) return;
      logger.info(`a media process stopped: it held no room for ${idleStopMs / 1000} s`);
      slot.stopped = running.close();
    }, idleStopMs);
    slot.idleTimer.unref();
  }

  return {
    send(request) {
      if (closed) return;
      let slot = placed.get(request.room);
      if (request.type === 'join' && !slot) {
        slot = leastLoaded();
        placed.set(request.room, slot);
        slot.rooms.set(request.room, new Set());
      }
      // Not placed: its room has no participant left here (a late message of one who left).
      if (!slot) return;
      processOf(slot).send(request);
      const conns = slot.rooms.get(request.room);
      if (request.type === 'join') conns?.add(request.conn);
      if (request.type !== 'leave') return;
      conns?.delete(request.conn);
      if (conns?.size) return;
      placed.delete(request.room);
      slot.rooms.delete(request.room);
      if (slot.rooms.size === 0) stopWhenIdle(slot);
    },
    ready(room) {
      const slot = placed.get(room);
      return slot?.process?.ready() ?? false;
    },
    pids: () => slots.flatMap((slot) => slot.process?.pid() ?? []),
    async close() {
      closed = true;
      await Promise.all(
        slots.map(async (slot) => {
          clearTimeout(slot.idleTimer);
          await slot.process?.close();
          await slot.stopped;
        }),
      );
    },
  };
}
