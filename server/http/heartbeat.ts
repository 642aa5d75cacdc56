/** What the heartbeat uses of a socket (`ws`'s WebSocket has it). */
export interface Pingable {
  ping(): void;
}

export interface HeartbeatOptions<Socket extends Pingable> {
  /** How often each socket is pinged; one still waiting for its pong at its next turn is unresponsive. */
  periodMs: number;
  /** Turns per period: each turn pings the sockets of one slot, and slots are filled in turn. */
  slots: number;
  /** A socket that did not answer its last ping within a period (the heartbeat has already forgotten it). */
  onUnresponsive(socket: Socket): void;
}

/**
 * Pings every socket once per period, a slot of them at a time, and reports those that did not answer the last ping.
 *
 * Pinging every socket at once held the event loop for as long as the writes took, and the pongs then came back
 * together: with 100 sockets, 7–13 ms every 30 s on the 2-core development machine, which a message sent then
 * waited for (a benchmark's fan-out p50 there is 3–4 ms); with 10,000, 148 ms of pings and a 353 ms stall. In turns
 * of a quarter of a second, a turn of 10,000 sockets took 4–7 ms (15 at most). Sockets take the slots in turn as
 * they come, so each turn pings about a `slots`-th of them. The timer runs only while there are sockets.
 */
export function createHeartbeat<Socket extends Pingable>(options: HeartbeatOptions<Socket>) {
  const wheel: Set<Socket>[] = Array.from({ length: options.slots }, () => new Set());
  const awaitingPong = new Set<Socket>();
  let count = 0;
  let nextSlot = 0;
  let turn = 0;
  let timer: NodeJS.Timeout | undefined;

  function beat(): void {
    const slot = wheel[turn];
    turn = (turn + 1) % wheel.length;
    for (const socket of slot) {
      if (awaitingPong.has(socket)) {
        forget(socket);
        options.onUnresponsive(socket);
      } else {
        awaitingPong.add(socket);
        socket.ping();
      }
    }
  }

  /**
   * Looks through the slots rather than remembering each socket's: a closing socket costs at most `slots` lookups,
   * where a map of every socket's slot would cost each idle socket's memory.
   */
  function forget(socket: Socket): void {
    if (!wheel.some((slot) => slot.delete(socket))) return;
    awaitingPong.delete(socket);
    count--;
    if (count === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  return {
    /** Starts pinging the socket: its first ping comes within a period. Add a socket once. */
    add(socket: Socket): void {
      wheel[nextSlot].add(socket);
      nextSlot = (nextSlot + 1) % wheel.length;
      count++;
      if (!timer) {
        timer = setInterval(beat, options.periodMs / options.slots);
        timer.unref();
      }
    },
    /** The socket answered its last ping. */
    pong(socket: Socket): void {
      awaitingPong.delete(socket);
    },
    /** Stops pinging the socket (it closed). */
    remove: forget,
    /** Every socket it pings now. */
    *sockets(): IterableIterator<Socket> {
      for (const slot of wheel) yield* slot;
    },
    close(): void {
      clearInterval(timer);
      timer = undefined;
      for (const slot of wheel) slot.clear();
      awaitingPong.clear();
      count = 0;
    },
  };
}
