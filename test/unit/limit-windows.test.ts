// The abuse limits' sliding windows with their counts in Redis (server/security/limit-windows.ts), against a real
// Redis: the decisions of the window in memory, shared by every node, and each node's own while Redis is away.
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../server/clock.js';
import { connectRedis } from '../../server/cluster/redis-connection.js';
import { createLimitWindows, type LimitWindows } from '../../server/security/limit-windows.js';
import { createSlidingWindow, type LimitDecision } from '../../server/security/sliding-window.js';
import { type RedisServer, redisMissing, startRedis } from '../support/redis.js';
import { manualClock } from '../support/server.js';
import { eventually } from '../support/wait.js';

const missing = redisMissing();
if (missing) console.warn(`Skipping the limits counted in Redis: ${missing}`);

/** One node's limits on its own connection to Redis, and what they logged. */
interface Node {
  windows: LimitWindows;
  connection: Redis;
  logged: () => string[];
}

describe.skipIf(missing !== undefined)('limit windows counted in Redis', () => {
  let redis: RedisServer;
  const connections: Redis[] = [];

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const connection of connections) connection.disconnect();
    await redis?.stop();
  });

  async function startNode(clock: Clock): Promise<Node> {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line).msg) });
    const connection = await connectRedis(redis.url, `node-${connections.length}`, logger);
    connections.push(connection);
    return { windows: createLimitWindows({ clock, logger }, connection), connection, logged: () => lines };
  }

  /** A client of Redis for the test itself. */
  async function inspector(): Promise<Redis> {
    const connection = new Redis(redis.url, { lazyConnect: true });
    connections.push(connection);
    await connection.connect();
    return connection;
  }

  it('decides as the window in memory does, to the millisecond, as the clock moves', async () => {
    const clock = manualClock(Date.parse('2026-01-01T00:00:00.000Z'));
    const memory = createSlidingWindow(clock, 5, 60_000);
    const shared = (await startNode(clock)).windows.window('same-decisions', 5, 60_000);
    // The same steps on both, chosen by a fixed pseudo-random sequence: takes mostly, failures counted, peeks, now and
    // every 50th a reset, with the clock moved from nothing to half a window between them.
    let seed = 42;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const answers: [unknown, unknown][] = [];
    for (let step = 0; step < 400; step++) {
      clock.advance([0, 0, 1, 999, 7_000, 30_000][next(6)]);
      const key = `key-${next(3)}`;
      const operation = step % 50 === 49 ? 'reset' : (['take', 'take', 'take', 'count', 'peek'] as const)[next(5)];
      answers.push([await shared[operation](key), memory[operation](key)]);
    }
    for (const [fromRedis, fromMemory] of answers) expect(fromRedis).toEqual(fromMemory);
    const refused = answers.filter(([answer]) => (answer as LimitDecision | undefined)?.allowed === false);
    expect(refused.length).toBeGreaterThan(20);
  });

  it('counts once for all nodes: remaining and Retry-After are those of the whole count', async () => {
    const clock = manualClock(Date.parse('2026-01-01T00:00:00.000Z'));
    const nodes = [await startNode(clock), await startNode(clock)];
    const windows = nodes.map((node) => node.windows.window('across-nodes', 3, 60_000));
    const taken: LimitDecision[] = [];
    for (let i = 0; i < 3; i++) taken.push(await windows[i % 2].take('key'));
    expect(taken.map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    const refused = await Promise.all(windows.map((window) => window.take('key')));
    expect(refused).toEqual([
      { allowed: false, limit: 3, remaining: 0, retryAfterMs: 60_001, resetMs: 120_000 },
      { allowed: false, limit: 3, remaining: 0, retryAfterMs: 60_001, resetMs: 120_000 },
    ]);
    // Failures counted on one node are seen by the other, and a reset on either clears them for both.
    await windows[0].count('failing');
    await windows[1].count('failing');
    await windows[0].count('failing');
    expect((await windows[1].peek('failing')).allowed).toBe(false);
    await windows[1].reset('failing');
    expect((await windows[0].peek('failing')).allowed).toBe(true);
  });

  it('keeps each count under switchboard:limit: for two windows at most', async () => {
    const clock = manualClock(Date.parse('2026-01-01T00:00:10.000Z'));
    const window = (await startNode(clock)).windows.window('key-names', 3, 60_000);
    await window.take('pk_1');
    await window.count('pk_1');
    const inspect = await inspector();
    const keys = await inspect.keys('switchboard:limit:key-names:*');
    expect(keys).toEqual([`switchboard:limit:key-names:pk_1:${Date.parse('2026-01-01T00:00:00.000Z')}`]);
    expect(await inspect.get(keys[0])).toBe('2');
    const ttl = await inspect.pttl(keys[0]);
    expect(ttl).toBeGreaterThan(110_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });

  it('decides on each node alone while Redis is away, says so once, and counts across nodes again once it is back', async () => {
    const clock = manualClock();
    const nodes = [await startNode(clock), await startNode(clock)];
    const windows = nodes.map((node) => node.windows.window('while-away', 2, 60_000));

    await redis.pause();
    try {
      // Node 0 holds its limit by itself; node 1 has a count of its own.
      const onFirst = [];
      for (let i = 0; i < 3; i++) onFirst.push((await windows[0].take('key')).allowed);
      expect(onFirst).toEqual([true, true, false]);
      expect((await windows[1].take('key')).allowed).toBe(true);
      await windows[1].count('failing');
      expect((await windows[1].peek('failing')).remaining).toBe(0);
    } finally {
      await redis.resume();
    }
    for (const node of nodes) {
      const warned = node.logged().filter((line) => line.includes('the limits cannot reach Redis'));
      expect(warned).toHaveLength(1);
    }

    for (const node of nodes)
      await eventually(
        async () => node.connection.status,
        (status) => status === 'ready',
        10_000,
      );
    // The new Redis is empty: the count starts again, for both nodes together.
    expect((await windows[0].take('key')).allowed).toBe(true);
    expect((await windows[1].take('key')).allowed).toBe(true);
    expect((await windows[0].take('key')).allowed).toBe(false);
    for (const node of nodes) {
      expect(node.logged().filter((line) => line.includes('they count across nodes'))).toHaveLength(1);
    }
  }, 30_000);

  it('decides in memory when Redis does not answer within a second, rather than hang the request', async () => {
    const clock = manualClock();
    const node = await startNode(clock);
    const window = node.windows.window('hung', 2, 60_000);
    expect((await window.take('key')).remaining).toBe(1);
    // Redis stops answering anyone for 2 s (the connection stays open, as through a network cut).
    await (await inspector()).call('CLIENT', 'PAUSE', '2000', 'ALL');
    const started = performance.now();
    const decision = await window.take('key');
    expect(performance.now() - started).toBeLessThan(1_800);
    // This node's own count, which had not seen the first request.
    expect(decision).toMatchObject({ allowed: true, remaining: 1 });
    expect(node.logged().filter((line) => line.includes('the limits cannot reach Redis'))).toHaveLength(1);
  });
});
