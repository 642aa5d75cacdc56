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
