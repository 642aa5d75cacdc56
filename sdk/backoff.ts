/**
 * How long to wait before reconnect attempt `attempt` (0 for the first): `initialDelayMs` doubled
 * per earlier attempt, capped at `maxDelayMs`, then jittered to between half and all of it, so that
 * clients dropped together do not all come back at once.
 */
export function backoffDelay(
  attempt: number,
  { initialDelayMs, maxDelayMs }: { initialDelayMs: number; maxDelayMs: number },
): number {
  const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** The close code of a server (or environment) at its WebSocket limit: RFC 6455's "Try Again Later". */
export const TRY_AGAIN_LATER = 1013;

/**
 * After a 1013 the schedule starts at 5 s and may grow to 60 s (or the client's own, if longer): a full server frees
 * places as its clients leave, not within the half second a dropped connection is worth retrying after, and its
 * refused clients must not come back all at once.
 */
const TRY_AGAIN_LATER_BACKOFF = { initialDelayMs: 5_000, maxDelayMs: 60_000 };

/** The delay before reconnect attempt `attempt` after a socket closed with `closeCode`: longer after a 1013. */
export function reconnectDelay(
  attempt: number,
  options: { initialDelayMs: number; maxDelayMs: number },
  closeCode: number,
): number {
  if (closeCode !== TRY_AGAIN_LATER) return backoffDelay(attempt, options);
  return backoffDelay(attempt, {
    initialDelayMs: Math.max(options.initialDelayMs, TRY_AGAIN_LATER_BACKOFF.initialDelayMs),
    maxDelayMs: Math.max(options.maxDelayMs, TRY_AGAIN_LATER_BACKOFF.maxDelayMs),
  });
}
