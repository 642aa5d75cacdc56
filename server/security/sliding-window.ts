import type { Clock } from '../clock.js';

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  /** What is left in the current window after this request. */
  remaining: number;
  /** Milliseconds until a request would be allowed again (0 when allowed). */
  retryAfterMs: number;
  /** Milliseconds until the window has fully slid past what it counts now. */
  resetMs: number;
}

/** What a sliding window keeps per key: the counts of the current fixed window and of the one before it. */
export interface WindowCounts {
  windowStart: number;
  current: number;
  previous: number;
}

/** A limit of `limit` events per sliding `windowMs`. */
export interface WindowSize {
  limit: number;
  windowMs: number;
}

/** Start of the fixed window `now` falls in: windows are aligned on the epoch, the same on every node. */
export const windowStartAt = (now: number, windowMs: number): number => now - (now % windowMs);

/** How much of the previous fixed window the sliding window still covers at `now`, from 1 down to 0. */
export const previousWeightAt = (now: number, windowStart: number, windowMs: number): number =>
  1 - (now - windowStart) / windowMs;

/** When the estimate drops below the limit again, if nothing more is counted. */
function retryAfter({ limit, windowMs }: WindowSize, counts: WindowCounts, now: number): number {
  // The current window's count alone is at the limit: it becomes the previous one, whose weight must then fall
  // below limit / current. Otherwise the previous window's weight must fall until previous × weight + current < limit.
  const at =
    counts.current >= limit
      ? counts.windowStart + windowMs + windowMs * (1 - limit / counts.current)
      : counts.windowStart + windowMs * (1 - (limit - counts.current) / counts.previous);
  return Math.max(1, Math.ceil(at - now) + 1);
}

/**
 * The decision a request gets at `now` from these counts (before it is counted). Shared by the window in memory and
 * the one in Redis (redis-sliding-window.ts), so that both answer alike to the millisecond.
 */
export function decideAt(size: WindowSize, counts: WindowCounts, now: number): LimitDecision {
  const { limit, windowMs } = size;
  const used = counts.previous * previousWeightAt(now, counts.windowStart, windowMs) + counts.current;
  const allowed = used < limit;
  return {
    allowed,
    limit,
    remaining: Math.max(0, Math.floor(limit - used - (allowed ? 1 : 0))),
    retryAfterMs: allowed ? 0 : retryAfter(size, counts, now),
    resetMs: counts.windowStart + (counts.current > 0 ? 2 : 1) * windowMs - now,
  };
}

/**
 * A sliding window as the limits use it. In memory every answer comes at once; in Redis (several nodes) as a promise:
 * callers on a hot path take the value without awaiting when they can (keys/rate-limit.ts).
 */
export interface LimitWindow {
  /** Counts one request for `key` if the limit allows it, and answers the decision. */
  take(key: string): LimitDecision | Promise<LimitDecision>;
  /** The decision a request would get now, counting nothing (for limits on failures, checked before the attempt). */
  peek(key: string): LimitDecision | Promise<LimitDecision>;
  /** Counts one event (a failure) for `key`. */
  count(key: string): void | Promise<void>;
  /** Forgets the key (e.g. after a successful sign-in). */
  reset(key: string): void | Promise<void>;
}

/** Keys kept at most: past this, the counters idle longest are dropped (an attacker cycling keys cannot grow memory). */
const MAX_KEYS = 100_000;

/**
 * A sliding-window counter per key (the approximation Cloudflare uses): the count of the current fixed window plus
 * the previous one weighted by how much of it the sliding window still covers. Two numbers per key, exact at window
 * boundaries, and driven by the injected clock so that tests move time instead of sleeping. Written here rather than
 * taken from a library because the libraries read `Date.now()` themselves. It counts in this process's memory: what
 * a server alone uses, and a node of several while Redis is out of reach (limit-windows.ts).
 */
export function createSlidingWindow(clock: Clock, limit: number, windowMs: number) {
  const size: WindowSize = { limit, windowMs };
  const counters = new Map<string, WindowCounts>();

  function counterAt(key: string, now: number): WindowCounts {
    const windowStart = windowStartAt(now, windowMs);
    let counter = counters.get(key);
    if (!counter) {
      counter = { windowStart, current: 0, previous: 0 };
    } else if (counter.windowStart !== windowStart) {
      const elapsedWindows = (windowStart - counter.windowStart) / windowMs;
      counter = { windowStart, current: 0, previous: elapsedWindows === 1 ? counter.current : 0 };
    }
    // Re-inserted, so that the map's order is least recently used first.
    counters.delete(key);
    counters.set(key, counter);
    if (counters.size > MAX_KEYS) counters.delete(counters.keys().next().value as string);
    return counter;
  }

  return {
    take(key: string): LimitDecision {
      const now = clock.now();
      const counter = counterAt(key, now);
      const decision = decideAt(size, counter, now);
      if (decision.allowed) counter.current += 1;
      return decision;
    },
    peek(key: string): LimitDecision {
      const now = clock.now();
      const counter = counters.get(key);
      return decideAt(
        size,
        counter ? counterAt(key, now) : { windowStart: windowStartAt(now, windowMs), current: 0, previous: 0 },
        now,
      );
    },
    count(key: string): void {
      counterAt(key, clock.now()).current += 1;
    },
    reset(key: string): void {
      counters.delete(key);
    },
  } satisfies LimitWindow;
}

export type SlidingWindow = ReturnType<typeof createSlidingWindow>;
