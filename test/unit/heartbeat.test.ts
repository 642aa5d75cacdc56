import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHeartbeat } from '../../server/http/heartbeat.js';

/** A socket that counts its pings and answers them (or not) when the test says. */
function fakeSocket(name: string) {
  return {
    name,
    pings: 0,
    ping() {
      this.pings++;
    },
  };
}
type FakeSocket = ReturnType<typeof fakeSocket>;

describe('heartbeat', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function heartbeat(slots = 4) {
    const unresponsive: string[] = [];
    const beat = createHeartbeat<FakeSocket>({
      periodMs: 4_000,
      slots,
      onUnresponsive: (socket) => unresponsive.push(socket.name),
    });
    return { beat, unresponsive };
  }

  it('pings every socket once per period, a slot of them at each turn', () => {
    const { beat } = heartbeat(4);
    const sockets = Array.from({ length: 8 }, (_, i) => fakeSocket(`s${i}`));
    for (const s of sockets) beat.add(s);
    const pingedPerTurn: number[] = [];
    let before = 0;
    for (let turn = 0; turn < 4; turn++) {
      vi.advanceTimersByTime(1_000);
      const total = sockets.reduce((n, s) => n + s.pings, 0);
      pingedPerTurn.push(total - before);
      before = total;
      for (const s of sockets) beat.pong(s);
    }
    expect(pingedPerTurn).toEqual([2, 2, 2, 2]);
    expect(sockets.map((s) => s.pings)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    beat.close();
  });

  it('reports a socket still waiting for its pong at its next turn, once, and keeps the ones that answered', () => {
    const { beat, unresponsive } = heartbeat(2);
    const quiet = fakeSocket('quiet');
    const answering = fakeSocket('answering');
    beat.add(quiet);
    beat.add(answering);
    vi.advanceTimersByTime(4_000);
    expect([quiet.pings, answering.pings]).toEqual([1, 1]);
    beat.pong(answering);
    expect(unresponsive).toEqual([]);
    vi.advanceTimersByTime(4_000);
    expect(unresponsive).toEqual(['quiet']);
    expect([quiet.pings, answering.pings]).toEqual([1, 2]);
    for (let period = 0; period < 2; period++) {
      beat.pong(answering);
      vi.advanceTimersByTime(4_000);
    }
    expect(unresponsive).toEqual(['quiet']);
    expect([quiet.pings, answering.pings]).toEqual([1, 4]);
    beat.close();
  });

  it('stops pinging a removed socket, and runs no timer without sockets', () => {
    const { beat } = heartbeat(2);
    const socket = fakeSocket('gone');
    beat.add(socket);
    expect(vi.getTimerCount()).toBe(1);
    beat.remove(socket);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(8_000);
    expect(socket.pings).toBe(0);
    beat.close();
  });

  it('lists the sockets it pings: neither a removed one nor one found unresponsive', () => {
    const { beat } = heartbeat(2);
    const [kept, removed, quiet] = ['kept', 'removed', 'quiet'].map(fakeSocket);
    for (const socket of [kept, removed, quiet]) beat.add(socket);
    expect([...beat.sockets()].map((s) => s.name).sort()).toEqual(['kept', 'quiet', 'removed']);
    beat.remove(removed);
    vi.advanceTimersByTime(4_000);
    beat.pong(kept);
    vi.advanceTimersByTime(4_000);
    expect([...beat.sockets()].map((s) => s.name)).toEqual(['kept']);
    beat.close();
    expect([...beat.sockets()]).toEqual([]);
  });
});
