import { createHash, randomBytes } from 'node:crypto';
import type { ProviderAccount } from './oidc-provider.js';

/** The test provider's accounts, by the login typed on its form. */
export const SSO_ACCOUNTS: Record<string, ProviderAccount> = {
  ada: { email: 'Ada@Example.com', email_verified: true, name: 'Ada Lovelace' },
  grace: { email: 'grace@example.com', email_verified: true, name: 'Grace Hopper' },
  unverified: { email: 'eve@example.com', email_verified: false, name: 'Eve' },
  outsider: { email: 'mallory@elsewhere.org', email_verified: true, name: 'Mallory' },
};

/** A PKCE verifier and its S256 challenge, as the CLI makes them. */
export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
