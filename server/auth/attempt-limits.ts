import { isIP } from 'node:net';
import type { DeploymentMode } from '../context.js';
import { rateLimited } from '../errors.js';
import type { LimitWindows } from '../security/limit-windows.js';

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
 * Sign-in and registration attempt limits (sliding windows, by the injected clock; counted across nodes when there
 * are several, see limit-windows.ts). In local mode the developer's own machine (loopback) has no per-client limit:
 * tests and scripts sign in from it all day.
 */
export function createAttemptLimits(windows: LimitWindows, mode: DeploymentMode) {
  const failuresByAddress = windows.window(
    'login-failures-by-address',
    LOGIN_FAILURES_PER_ADDRESS.limit,
    LOGIN_FAILURES_PER_ADDRESS.windowMs,
  );
  const failuresByClient = windows.window(
    'login-failures-by-client',
    LOGIN_FAILURES_PER_CLIENT.limit,
    LOGIN_FAILURES_PER_CLIENT.windowMs,
  );
  const registrationsByClient = windows.window(
    'registrations-by-client',
    REGISTRATIONS_PER_CLIENT.limit,
    REGISTRATIONS_PER_CLIENT.windowMs,
  );
  const clientLimited = (client: string) => mode === 'production' || !isLoopback(client);

  return {
    /** Throws 429 when this address or client has failed too often lately; counts nothing. */
    async beforeLogin(email: string, client: string): Promise<void> {
      // Both asked at once: in Redis, one round trip's wait rather than two.
      const [byAddress, byClient] = await Promise.all([
        failuresByAddress.peek(email),
        clientLimited(client) ? failuresByClient.peek(client) : undefined,
      ]);
      if (!byAddress.allowed) {
        throw rateLimited('Too many failed sign-ins for this address.', byAddress.retryAfterMs);
      }
      if (byClient && !byClient.allowed) {
        throw rateLimited('Too many failed sign-ins from this client.', byClient.retryAfterMs);
      }
    },
    async loginFailed(email: string, client: string): Promise<void> {
      await Promise.all([failuresByAddress.count(email), clientLimited(client) && failuresByClient.count(client)]);
    },
    async loginSucceeded(email: string): Promise<void> {
      await failuresByAddress.reset(email);
    },
    /** Counts a registration attempt of this client, or throws 429 when it made too many lately. */
    async beforeRegistration(client: string): Promise<void> {
      if (!clientLimited(client)) return;
      const decision = await registrationsByClient.take(client);
      if (!decision.allowed) throw rateLimited('Too many registrations from this client.', decision.retryAfterMs);
    },
  };
}

export type AttemptLimits = ReturnType<typeof createAttemptLimits>;
