import type { Response } from 'express';
import { rateLimited } from '../errors.js';
import type { LimitWindows } from '../security/limit-windows.js';
import type { RateLimit } from '../security/settings.js';
import type { LimitDecision } from '../security/sliding-window.js';

/**
 * Requests per API key in a sliding window (production mode by default; `--key-rate-limit`), counted across nodes when
 * there are several (limit-windows.ts). Every answer to a key carries the standard `RateLimit-*` headers (IETF draft,
 * as express-rate-limit's `draft-6` writes them), so that SDKs can slow down before they are refused; past the limit,
 * 429 with `Retry-After`.
 */
export function createKeyRateLimits(windows: LimitWindows, limit: RateLimit | null) {
  const window = limit ? windows.window('key-requests', limit.requests, limit.windowMs) : undefined;
  const policy = limit ? `${limit.requests};w=${Math.round(limit.windowMs / 1000)}` : '';

  function answer(decision: LimitDecision, res: Response): void {
    const headers = {
      'RateLimit-Policy': policy,
      'RateLimit-Limit': String(decision.limit),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(Math.max(1, Math.ceil(decision.resetMs / 1000))),
    };
    res.set(headers);
    if (!decision.allowed) {
      throw rateLimited(`This API key made more than ${decision.limit} requests in the window.`, decision.retryAfterMs);
    }
  }

  return {
    /**
     * Counts a request of the key and sets its headers on the response; throws 429 past the limit. On the path of
     * every API request: a server alone decides at once, with no promise to await; a node of several answers a
     * promise, settled once Redis has counted.
     */
    admit(keyId: string, res: Response): void | Promise<void> {
      if (!window) return;
      const decision = window.take(keyId);
      if (decision instanceof Promise) return decision.then((shared) => answer(shared, res));
      answer(decision, res);
    },
  };
}
