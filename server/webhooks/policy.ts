/** The delivery limits of spec section 8, in one place. */

/**
 * An attempt whose response status has not arrived within this time has failed. The start of the
 * body that the delivery log keeps is read within the same deadline.
 */
export const DELIVERY_TIMEOUT_MS = 5_000;

/**
 * How long a worker's claim on a delivery holds (server/webhooks/worker.ts): far longer than an attempt can take (the
 * 5 s timeout, then the recording, which PostgreSQL may run again on a conflict). Only a server that died, or stalled
 * this long, leaves a claim to expire; another server then sends the delivery again, with the same event id.
 */
export const DELIVERY_LEASE_MS = 60_000;

/** After a failed attempt n (1-based), the next one waits RETRY_DELAYS_MS[n - 1]; past the end, FAILED. */
export const RETRY_DELAYS_MS = [10_000, 20_000, 40_000, 80_000, 160_000, 320_000] as const;

/** The first attempt and its six retries. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Failed attempts in a row, across all of an endpoint's deliveries, that disable the endpoint. */
export const AUTO_DISABLE_AFTER_FAILURES = 50;

/** How much of a response body the delivery log keeps: enough for an error page's message, bounded per attempt. */
export const RESPONSE_BODY_LOG_BYTES = 4096;

/**
 * A delivery that succeeded or failed for good stays in the delivery log (and can be resent) this
 * long after its last attempt, like the 30 days of events Stripe keeps; pending ones are never removed.
 */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** How often the worker removes finished deliveries past their retention (by the injected clock). */
export const RETENTION_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Attempts in flight at once to one endpoint from one server; other endpoints have lanes of their own. */
export const ENDPOINT_CONCURRENCY = 4;

/**
 * Deliveries of one endpoint a server claims at most (holds under lease), sent ENDPOINT_CONCURRENCY at a time: one
 * claim then serves several attempts. Small enough that a silent endpoint's claimed deliveries all go out before their
 * lease runs out (16 / 4 × the 5 s timeout = 20 s, well within DELIVERY_LEASE_MS), and that a backlog is shared out
 * between servers.
 */
export const ENDPOINT_CLAIM = 16;

/** When a failed attempt `attemptNumber` is retried, or null when the delivery has used its attempts. */
export function nextAttemptAfterFailure(attemptNumber: number, failedAt: number): number | null {
  return attemptNumber < MAX_ATTEMPTS ? failedAt + RETRY_DELAYS_MS[attemptNumber - 1] : null;
}
