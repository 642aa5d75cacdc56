import { isIP } from 'node:net';
import type { Clock } from '../clock.js';
import type { DeploymentMode } from '../context.js';
import { rateLimited } from '../errors.js';
import { createSlidingWindow } from '../security/sliding-window.js';

const MINUTE = 60_000;
/**
 * Failed sign-ins per address from anywhere: enough for a person who forgot which password they used, far too few
 * for guessing. Only failures count and a refused attempt counts nothing, so an attacker who spends them can keep a
 * real user out for at most the sliding window, and a correct password afterwards clears the count.
 */
export const LOGIN_FAILURES_PER_ADDRESS = { limit: 10, windowMs: 15 * MINUTE };
/** Failed sign-ins per client address, whatever accounts it tries (password spraying). */
export const LOGIN_FAILURES_PER_CLIENT = { limit: 30, windowMs: 15 * MINUTE };
/** Registrations per client address (account creation in bulk). */
export const REGISTRATIONS_PER_CLIENT = { limit: 10, windowMs: 60 * MINUTE };

const isLoopback = (address: string) =>
  address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.') || !isIP(address);

/**
 * Sign-in and registration attempt limits (sliding windows, by the injected clock). In local mode the developer's
 * own machine (loopback) has no per-client limit: tests and scripts sign in from it all day.
 */
export function createAttemptLimits(clock: Clock, mode: DeploymentMode) {
  const failuresByAddress = createSlidingWindow(
    clock,
    LOGIN_FAILURES_PER_ADDRESS.limit,
    LOGIN_FAILURES_PER_ADDRESS.windowMs,
  );
  const failuresByClient = createSlidingWindow(
    clock,
    LOGIN_FAILURES_PER_CLIENT.limit,
    LOGIN_FAILURES_PER_CLIENT.windowMs,
  );
  const registrationsByClient = createSlidingWindow(
    clock,
    REGISTRATIONS_PER_CLIENT.limit,
    REGISTRATIONS_PER_CLIENT.windowMs,
  );
  const clientLimited = (client: string) => mode === 'production' || !isLoopback(client);

  return {
    /** Throws 429 when this address or client has failed too often lately; counts nothing. */
    beforeLogin(email: string, client: string): void {
      const byAddress = failuresByAddress.peek(email);
      if (!byAddress.allowed) {
        throw rateLimited('Too many failed sign-ins for this address.', byAddress.retryAfterMs);
      }
      if (!clientLimited(client)) return;
      const byClient = failuresByClient.peek(client);
      if (!byClient.allowed) throw rateLimited('Too many failed sign-ins from this client.', byClient.retryAfterMs);
    },
    loginFailed(email: string, client: string): void {
      failuresByAddress.count(email);
      if (clientLimited(client)) failuresByClient.count(client);
    },
    loginSucceeded(email: string): void {
      failuresByAddress.reset(email);
    },
    /** Counts a registration attempt of this client, or throws 429 when it made too many lately. */
    beforeRegistration(client: string): void {
      if (!clientLimited(client)) return;
      const decision = registrationsByClient.take(client);
      if (!decision.allowed) throw rateLimited('Too many registrations from this client.', decision.retryAfterMs);
    },
  };
}

export type AttemptLimits = ReturnType<typeof createAttemptLimits>;
