import { FAULT_KINDS, type FaultKind } from './schemas.js';

/** The error an injected `webhook.failure` records for an attempt that was never sent. */
export const SIMULATED_FAILURE = 'Injected fault (webhook.failure): simulated failure, nothing was sent.';

/**
 * What a delivery held back by an injected fault shows as its `lastError` until its first attempt: why it waits, and,
 * for the attempt that follows, which fault held it (deliveries have no column of their own for it).
 */
export const heldNote = (kind: FaultKind, delayMs: number) =>
  `Injected fault (${kind}): held back ${delayMs} ms before its first attempt.`;

const HELD = /^Injected fault \(([a-z._]+)\): held back \d+ ms/;

/** The fault that held a delivery back, from its `lastError`; undefined if none did. */
export function heldBy(lastError: string | null): FaultKind | undefined {
  const kind = lastError === null ? undefined : HELD.exec(lastError)?.[1];
  return FAULT_KINDS.find((known) => known === kind);
}
