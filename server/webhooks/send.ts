import { performance } from 'node:perf_hooks';
import type { Clock } from '../clock.js';
import { DELIVERY_TIMEOUT_MS, RESPONSE_BODY_LOG_BYTES } from './policy.js';
import type { AttemptOutcome } from './queue.js';
import { signatureHeader } from './signature.js';

export interface Attempt {
  url: string;
  secret: string;
  eventId: string;
  eventType: string;
  /** The stored envelope: the exact bytes to send and sign. */
  payload: string;
  /** The attempt's span, when the server traces: sent as the W3C `traceparent` header. */
  traceparent?: string;
}

/** Raised when the server is stopping: the attempt is abandoned, not recorded, and sent again after a restart. */
export class AttemptAbandoned extends Error {}

/**
 * One POST of a delivery, signed with a fresh timestamp. Never throws for the endpoint's faults: a
 * non-2xx answer, a timeout or a connection failure is an outcome to record. Redirects are not
 * followed (a 3xx is a failed attempt), so a target cannot bounce the request elsewhere.
 */
export async function sendAttempt(
  deps: { fetch: typeof fetch; clock: Clock; userAgent: string },
  attempt: Attempt,
  stopping: AbortSignal,
): Promise<AttemptOutcome> {
  const attemptedAt = deps.clock.now();
  // Elapsed time is measured, not read from the (injectable, possibly manual) wall clock.
  const started = performance.now();
  const timeout = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  // Kept with the attempt, so that the delivery log shows the request as it went out.
  const requestHeaders = {
    'content-type': 'application/json',
    'user-agent': deps.userAgent,
    'service-signature': signatureHeader(attempt.secret, Math.floor(attemptedAt / 1000), attempt.payload),
    'service-event-id': attempt.eventId,
    'service-event-type': attempt.eventType,
    ...(attempt.traceparent && { traceparent: attempt.traceparent }),
  };
  const outcome = (statusCode: number | null, error: string | null, responseBody: string | null): AttemptOutcome => ({
    attemptedAt,
    durationMs: Math.round(performance.now() - started),
    statusCode,
    error,
    requestHeaders,
    responseBody,
  });

  let response: Response;
  try {
    response = await deps.fetch(attempt.url, {
      method: 'POST',
      headers: requestHeaders,
      body: attempt.payload,
      redirect: 'manual',
      signal: AbortSignal.any([timeout, stopping]),
    });
  } catch (err) {
    if (stopping.aborted) throw new AttemptAbandoned();
    return outcome(null, timeout.aborted ? timedOut() : connectionError(err), null);
  }
  // The status has arrived, so the attempt is recorded even if the server stops while its body is read.
  const body = await readStart(response, RESPONSE_BODY_LOG_BYTES);
  const redirected = response.status >= 300 && response.status < 400 ? 'Redirect not followed.' : null;
  return outcome(response.status, redirected, body);
}

const timedOut = () => `Timed out after ${DELIVERY_TIMEOUT_MS / 1000} s.`;

function connectionError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
  return `Connection failed (${detail}).`;
}

/** Up to `limit` bytes of the body as text; the rest is discarded unread. A body cut short is logged as far as it came. */
async function readStart(response: Response, limit: number): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // Timed out or cut mid-body: the status already decided the attempt.
  } finally {
    reader.cancel().catch(() => {});
  }
  if (size === 0) return '';
  // A multi-byte character cut at the limit decodes as U+FFFD, and so does a NUL byte, as text the server keeps on
  // either store (PostgreSQL's text cannot hold U+0000: an attempt with one could not be recorded there).
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8').replaceAll('\0', '\uFFFD');
}
