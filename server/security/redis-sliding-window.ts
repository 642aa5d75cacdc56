import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import {
  decideAt,
  type LimitDecision,
  previousWeightAt,
  type WindowCounts,
  type WindowSize,
  windowStartAt,
} from './sliding-window.js';

/** Every key of a limit starts with this. */
export const LIMIT_KEY_PREFIX = 'switchboard:limit:';

/**
 * Reads the counts of the current and the previous fixed window and counts one in the current window, all at once
 * (a script runs alone in Redis, so that two nodes never both take the last request left): always for `count`, for
 * `take` only if the estimate is under the limit. Answers the counts as they were before, from which the caller
 * decides as the window in memory does. The time is the caller's clock's (the window in the key names, the weight in
 * ARGV), never Redis's own TIME, so that tests which move the clock move it here too. A count is kept two windows from
 * its last increment: it weighs as the previous window's through the next one, then expires.
 *   KEYS: the current window's count, the previous window's
 *   ARGV: 'take' or 'count', the previous window's weight now, the limit, how long a count is kept (ms)
 */
const COUNT_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or 0)
local previous = tonumber(redis.call('GET', KEYS[2]) or 0)
if ARGV[1] == 'count' or previous * tonumber(ARGV[2]) + current < tonumber(ARGV[3]) then
  redis.call('INCR', KEYS[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
return { current, previous }
`;
const COUNT_SCRIPT_SHA = createHash('sha1').update(COUNT_SCRIPT).digest('hex');

/**
 * The sliding window of sliding-window.ts with its counts in Redis, for several nodes: every node counts in the same
 * keys, so a client gets the limit once, whichever nodes a load balancer sends it to, and the decisions (remaining,
 * Retry-After) are those of the whole cluster's counts. One round trip per call. A call fails (rejects) when Redis does:
 * the caller decides what then (limit-windows.ts counts in memory).
 */
export function createRedisSlidingWindow(redis: Redis, clock: Clock, name: string, size: WindowSize) {
  const { windowMs } = size;
  const keysOf = (key: string, windowStart: number) => [
    `${LIMIT_KEY_PREFIX}${name}:${key}:${windowStart}`,
    `${LIMIT_KEY_PREFIX}${name}:${key}:${windowStart - windowMs}`,
  ];

  /** Runs the script; sent whole only when this Redis does not know it yet (a new or restarted one). */
  async function countIn(keys: string[], args: (string | number)[]): Promise<[number, number]> {
    try {
      return (await redis.evalsha(COUNT_SCRIPT_SHA, 2, ...keys, ...args)) as [number, number];
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
      return (await redis.eval(COUNT_SCRIPT, 2, ...keys, ...args)) as [number, number];
    }
  }

  async function counted(mode: 'take' | 'count', key: string): Promise<{ counts: WindowCounts; now: number }> {
    const now = clock.now();
    const windowStart = windowStartAt(now, windowMs);
    const weight = previousWeightAt(now, windowStart, windowMs);
    const [current, previous] = await countIn(keysOf(key, windowStart), [mode, weight, size.limit, 2 * windowMs]);
    return { counts: { windowStart, current, previous }, now };
  }

  return {
    async take(key: string): Promise<LimitDecision> {
      const { counts, now } = await counted('take', key);
      return decideAt(size, counts, now);
    },
    async peek(key: string): Promise<LimitDecision> {
      const now = clock.now();
      const windowStart = windowStartAt(now, windowMs);
      const [current, previous] = await redis.mget(keysOf(key, windowStart));
      return decideAt(size, { windowStart, current: Number(current ?? 0), previous: Number(previous ?? 0) }, now);
    },
    async count(key: string): Promise<void> {
      await counted('count', key);
    },
    async reset(key: string): Promise<void> {
      await redis.del(keysOf(key, windowStartAt(clock.now(), windowMs)));
    },
  };
}

export type RedisSlidingWindow = ReturnType<typeof createRedisSlidingWindow>;
