import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * How costly a new password hash is. `standard`, for every real server: N=2^15, r=8, p=1, 32 MiB and tens of
 * milliseconds per hash, above Django's scrypt defaults. `fast`, N=2^10 (1 MiB, about a millisecond): for a
 * throw-away server in a test suite (startTestServer), whose accounts end with the test, as Django's tests swap in a
 * cheap hasher; a production-mode server refuses it. The parameters are stored with each hash, so they can be
 * changed later without breaking logins.
 */
export type PasswordHashing = 'standard' | 'fast';

const PARAMS: Record<PasswordHashing, { N: number; r: number; p: number }> = {
  standard: { N: 2 ** 15, r: 8, p: 1 },
  fast: { N: 2 ** 10, r: 8, p: 1 },
};
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64. */
export async function hashPassword(password: string, hashing: PasswordHashing): Promise<string> {
  const salt = randomBytes(16);
  const params = PARAMS[hashing];
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
