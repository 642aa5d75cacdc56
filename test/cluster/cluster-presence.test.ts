// The Redis side of presence across nodes (server/chat/realtime/cluster-presence.ts), on a real Redis: several
// nodes' views of one Redis, each node only its id, as the hubs of separate processes use it.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClusterPresence } from '../../server/chat/realtime/cluster-presence.js';
import { NODE_KEY_PREFIX } from '../../server/cluster/node-registry.js';
import { type RedisServer, redisMissing, startRedis } from '../support/redis.js';

const missing = redisMissing();
if (missing) console.warn(`Skipping the tests of presence in Redis: ${missing}`);

describe.skipIf(missing !== undefined)('presence in Redis, shared by the nodes', () => {
  let server: RedisServer;
  let redis: Redis;
  /** A node's view; alive (its heartbeat record there) unless said otherwise. */
  const node = async (id: string, { alive = true } = {}) => {
    if (alive) await redis.set(`${NODE_KEY_PREFIX}${id}`, '{}');
    return createClusterPresence(redis, id);
  };

  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });
  beforeEach(() => redis.flushall());

  it('says online at the first socket anywhere and offline after the last, counting every node', async () => {
    const [a, b] = [await node('node_a'), await node('node_b')];
    expect(await a.set('alice', 1)).toBe(true);
    expect(await a.set('alice', 2)).toBeUndefined();
    expect(await b.set('alice', 1)).toBeUndefined();
    expect(await a.counts(['alice', 'bob'])).toEqual([3, 0]);
    expect(await a.set('alice', 0)).toBeUndefined();
    expect(await b.counts(['alice'])).toEqual([1]);
    expect(await b.set('alice', 0)).toBe(false);
    expect(await a.counts(['alice'])).toEqual([0]);
  });

  it('lets only one of two nodes decide a first socket, or a last, made at once', async () => {
    const [a, b] = [await node('node_a'), await node('node_b')];
    expect(
      (await Promise.all([a.set('alice', 1), b.set('alice', 1)])).filter((online) => online === true),
    ).toHaveLength(1);
    expect(
      (await Promise.all([a.set('alice', 0), b.set('alice', 0)])).filter((online) => online === false),
    ).toHaveLength(1);
  });

  it("replaces a node's counts whole, saying who that brought online or took offline", async () => {
    const [a, b] = [await node('node_a'), await node('node_b')];
    await b.set('bob', 1);
    await a.set('stale', 1);
    expect(
      await a.replace(
        new Map([
          ['alice', 2],
          ['bob', 1],
        ]),
      ),
    ).toEqual({ online: ['alice'], offline: ['stale'] });
    expect(await a.counts(['alice', 'bob', 'stale'])).toEqual([2, 2, 0]);
    expect(await a.replace(new Map())).toEqual({ online: [], offline: ['alice'] });
    expect(await b.counts(['alice', 'bob'])).toEqual([0, 1]);
  });

  it("sweeps a dead node's users once, leaving those still on a live node, and never a live node", async () => {
    const [a, b, dead] = [await node('node_a'), await node('node_b'), await node('node_dead', { alive: false })];
    await dead.set('bob', 1);
    await dead.set('frank', 2);
    await a.set('frank', 1);
    await b.set('erin', 1);
    const [first, second] = await Promise.all([a.sweep(), b.sweep()]);
    expect([first.offline, second.offline].sort()).toEqual([[], ['bob']]);
    expect(first.registered && second.registered).toBe(true);
    expect(await a.counts(['bob', 'frank', 'erin'])).toEqual([0, 1, 1]);
    expect((await a.sweep()).offline).toEqual([]);
  });

  it('tells a node that another swept it (its heartbeats were missed), so that it registers again', async () => {
    const a = await node('node_a', { alive: false });
    const b = await node('node_b');
    await a.set('alice', 1);
    expect((await b.sweep()).offline).toEqual(['alice']);
    expect((await a.sweep()).registered).toBe(false);
    expect(await a.replace(new Map([['alice', 1]]))).toEqual({ online: ['alice'], offline: [] });
    expect(await b.counts(['alice'])).toEqual([1]);
  });

  it('forgets users of a node without a word (their environment was reset)', async () => {
    const a = await node('node_a');
    await a.set('alice', 1);
    await a.set('bob', 1);
    await a.forget(['alice']);
    expect(await a.counts(['alice', 'bob'])).toEqual([0, 1]);
  });
});
