import { createHmac, hkdfSync } from 'node:crypto';

/** The fewest characters a secret key may have: 32 random bytes written in base64 are 44. */
export const MIN_SECRET_KEY_LENGTH = 32;

/** How to make a secret key, for the messages that ask for one. */
export const MAKE_A_SECRET_KEY = 'make one with `openssl rand -base64 48` and keep it outside the database';

export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

/**
 * The keys a server on PostgreSQL derives from SWITCHBOARD_SECRET_KEY, one for each use (HKDF-SHA-256, the use as
 * its info), so that no key can pass for another and none is stored beside the data it protects. On SQLite the keys
 * are generated once instead, and live in the data folder (webhook-secrets.key) and the database (token keys).
 */
export interface DerivedKeys {
  /** The key of one purpose: `webhook-secrets`, or a token key's name. 32 bytes. */
  key(purpose: string): Buffer;
  /**
   * The key's id: a value that tells whether a database was written with this secret key, stored at first start and
   * compared at every later one, and recorded beside each value sealed with it. It reveals nothing of the key.
   */
  fingerprint: string;
}

export function deriveKeys(secretKey: string, which = 'secret key'): DerivedKeys {
  const trimmed = secretKey.trim();
  if (trimmed.length < MIN_SECRET_KEY_LENGTH)
    throw new SecretKeyError(
      `The ${which} has ${trimmed.length} characters; it needs at least ${MIN_SECRET_KEY_LENGTH}: ${MAKE_A_SECRET_KEY}.`,
    );
  const key = (purpose: string) =>
    Buffer.from(hkdfSync('sha256', trimmed, 'switchboard', `switchboard ${purpose}`, 32));
  return {
    key,
    fingerprint: createHmac('sha256', key('fingerprint')).update('switchboard secret key').digest('base64url'),
  };
}

/** The id of a key kept as bytes (the data folder's webhook-secrets key on SQLite), computed as a fingerprint is. */
export const keyIdOf = (key: Buffer): string =>
  createHmac('sha256', key).update('switchboard secret key').digest('base64url');

/** How a key id is shown: enough of it to tell two keys apart. */
export const shortKeyId = (id: string): string => id.slice(0, 12);
