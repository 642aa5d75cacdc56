import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { createRedisSlidingWindow } from './redis-sliding-window.js';
import { createSlidingWindow, type LimitWindow } from './sliding-window.js';

/**
 * How long a limit waits for Redis before it decides in memory instead. Redis answers in well under a millisecond;
 * one that takes this long is hung (a network cut without a reset), and the request must not hang with it.
 */
const REDIS_ANSWER_MS = 1_000;
/** After Redis did not answer in time, how long the limits count in memory before they ask it again. */
const REST_AFTER_SLOW_MS = 5_000;

class RedisTooSlow extends Error {
  constructor() {
    super(`Redis did not answer a limit check within ${REDIS_ANSWER_MS} ms`);
  }
}

/** The answer of `promise`, or a RedisTooSlow rejection once REDIS_ANSWER_MS have passed. */
function inTime<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisTooSlow()), REDIS_ANSWER_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Runs a check in Redis, or this node's own check when Redis is out of reach (not connected, failing, too slow):
 * a limit never fails a request because Redis is away. The log says once that the limits count on this node alone,
 * and once that they count across nodes again.
 */
function createRedisFallback(redis: Redis, logger: Logger) {
  let lost = false;
  let resting = false;

  function wentAway(err: unknown): void {
    if (err instanceof RedisTooSlow && !resting) {
      resting = true;
      setTimeout(() => {
        resting = false;
      }, REST_AFTER_SLOW_MS).unref();
    }
    if (lost) return;
    lost = true;
    logger.warn(
      { err: { message: err instanceof Error ? err.message : String(err) } },
      'the limits cannot reach Redis: sign-in, registration and API key limits count on this node alone until it is back',
    );
  }

  /** `shared`, or `local` when Redis is out of reach. */
  return function sharedOr<T>(shared: (key: string) => Promise<T>, local: (key: string) => T) {
    return async (key: string): Promise<T> => {
      if (redis.status !== 'ready' || resting) {
        if (!lost) wentAway(new Error(`the connection to Redis is ${redis.status}`));
        return local(key);
      }
      try {
        const answer = await inTime(shared(key));
        if (lost) {
          lost = false;
          logger.info('the limits reach Redis again: they count across nodes');
        }
        return answer;
      } catch (err) {
        wentAway(err);
        return local(key);
      }
    };
  };
}

export interface LimitWindows {
  /** A sliding window of `limit` events per `windowMs`; `name` tells its counts from other limits' in Redis. */
  window(name: string, limit: number, windowMs: number): LimitWindow;
}

/**
 * Where the abuse limits count (failed sign-ins, registrations, requests per API key; docs/security.md). A server
 * alone counts in its memory, exactly as it always has: no Redis, no promise. A node of several counts in Redis, so
 * that a round-robin load balancer does not give a client the limit once per node. While Redis is out of reach, each
 * node counts in its own memory instead (what it sees while Redis is away), so that the limits still hold per
 * node; and in Redis again once it answers.
 *
 * Limits that stay per node on purpose, and do not come here: the connection and WebSocket limits (socket-limits.ts)
 * guard this node's own sockets and open files; a socket's message rate (socket-endpoint.ts) belongs to one socket,
 * which lives on one node.
 */
export function createLimitWindows(
  { clock, logger }: { clock: Clock; logger: Logger },
  /** The cluster's (`cluster.redis`); none when the server runs alone. */
  redis: Redis | undefined,
): LimitWindows {
  if (!redis) return { window: (_name, limit, windowMs) => createSlidingWindow(clock, limit, windowMs) };
  const sharedOr = createRedisFallback(redis, logger);
  return {
    window(name, limit, windowMs) {
      const local = createSlidingWindow(clock, limit, windowMs);
      const shared = createRedisSlidingWindow(redis, clock, name, { limit, windowMs });
      const resetShared = sharedOr(shared.reset, () => {});
      return {
        take: sharedOr(shared.take, local.take),
        peek: sharedOr(shared.peek, local.peek),
        count: sharedOr(shared.count, local.count),
        reset(key) {
          // The local count goes too: it may hold failures counted while Redis was away.
          local.reset(key);
          return resetShared(key);
        },
      };
    },
  };
}
