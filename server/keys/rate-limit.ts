import type { Response } from 'express';
import type { Clock } from '../clock.js';
import { rateLimited } from '../errors.js';
import type { RateLimit } from '../security/settings.js';
import { createSlidingWindow } from '../security/sliding-window.js';

/**
 * Requests per API key in a sliding window (production mode by default; `--key-rate-limit`). Every answer to a key
 * carries the standard `RateLimit-*` headers (IETF draft, as express-rate-limit's `draft-6` writes them), so that
 * SDKs can slow down before they are refused; past the limit, 429 with `Retry-After`.
 */
export function createKeyRateLimits(clock: Clock, limit: RateLimit | null) {
  const window = limit ? createSlidingWindow(clock, limit.requests, limit.windowMs) : undefined;
  const policy = limit ? `${limit.requests};w=${Math.round(limit.windowMs / 1000)}` : '';
  return {
    /** Counts a request of the key and sets its headers on the response; throws 429 past the limit. */
    admit(keyId: string, res: Response): void {
      if (!window) return;
      const decision = window.take(keyId);
      const headers = {
        'RateLimit-Policy': policy,
        'RateLimit-Limit': String(decision.limit),
        'RateLimit-Remaining': String(decision.remaining),
        'RateLimit-Reset': String(Math.max(1, Math.ceil(decision.resetMs / 1000))),
      };
      res.set(headers);
      if (!decision.allowed) {
        throw rateLimited(
          `This API key made more than ${decision.limit} requests in the window.`,
          decision.retryAfterMs,
        );
      }
    },
  };
}
