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

interface Counter {
  windowStart: number;
  current: number;
  previous: number;
}

/** Keys kept at most: past this, the counters idle longest are dropped (an attacker cycling keys cannot grow memory). */
const MAX_KEYS = 100_000;

/**
 * A sliding-window counter per key (the approximation Cloudflare uses): the count of the current fixed window plus
 * the previous one weighted by how much of it the sliding window still covers. Two numbers per key, exact at window
 * boundaries, and driven by the injected clock so that tests move time instead of sleeping. Written here rather than
 * taken from a library because the libraries read `Date.now()` themselves.
 */
export function createSlidingWindow(clock: Clock, limit: number, windowMs: number) {
  const counters = new Map<string, Counter>();

  function counterAt(key: string, now: number): Counter {
    const windowStart = now - (now % windowMs);
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

  function estimate(counter: Counter, now: number): number {
    const previousWeight = 1 - (now - counter.windowStart) / windowMs;
    return counter.previous * previousWeight + counter.current;
  }

  /** When the estimate drops below the limit again, if nothing more is counted. */
  function retryAfter(counter: Counter, now: number): number {
    // The current window's count alone is at the limit: it becomes the previous one, whose weight must then fall
    // below limit / current. Otherwise the previous window's weight must fall until previous × weight + current < limit.
    const at =
      counter.current >= limit
        ? counter.windowStart + windowMs + windowMs * (1 - limit / counter.current)
        : counter.windowStart + windowMs * (1 - (limit - counter.current) / counter.previous);
    return Math.max(1, Math.ceil(at - now) + 1);
  }

  function decide(counter: Counter, now: number): LimitDecision {
    const used = estimate(counter, now);
    const allowed = used < limit;
    return {
      allowed,
      limit,
      remaining: Math.max(0, Math.floor(limit - used - (allowed ? 1 : 0))),
      retryAfterMs: allowed ? 0 : retryAfter(counter, now),
      resetMs: counter.windowStart + (counter.current > 0 ? 2 : 1) * windowMs - now,
    };
  }

  return {
    /** Counts one request for `key` if the limit allows it, and answers the decision. */
    take(key: string): LimitDecision {
      const now = clock.now();
      const counter = counterAt(key, now);
      const decision = decide(counter, now);
      if (decision.allowed) counter.current += 1;
      return decision;
    },
    /** The decision a request would get now, counting nothing (for limits on failures, checked before the attempt). */
    peek(key: string): LimitDecision {
      const now = clock.now();
      const counter = counters.get(key);
      return decide(
        counter ? counterAt(key, now) : { windowStart: now - (now % windowMs), current: 0, previous: 0 },
        now,
      );
    },
    /** Counts one event (a failure) for `key`. */
    count(key: string): void {
      counterAt(key, clock.now()).current += 1;
    },
    /** Forgets the key (e.g. after a successful sign-in). */
    reset(key: string): void {
      counters.delete(key);
    },
  };
}

export type SlidingWindow = ReturnType<typeof createSlidingWindow>;
