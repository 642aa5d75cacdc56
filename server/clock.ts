/** The only source of "now" in the server, injected so that tests can move time by hand. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const toIso = (ms: number): string => new Date(ms).toISOString();
export const toIsoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : toIso(ms));

/** JWTs count time in whole seconds: an `expiresAt` shown next to a token matches its `exp`. */
export const wholeSeconds = (ms: number): number => Math.floor(ms / 1000) * 1000;
