import { webcrypto } from 'node:crypto';
import { decodeJwt, type JWTPayload, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../clock.js';

const ISSUER = 'switchboard';

export type VerifiedJwt = { ok: true; payload: JWTPayload } | { ok: false; reason: 'expired' | 'invalid' };

/** A signing key: its bytes, or how to load them when first needed (secretOnFirstUse). */
export type JwtSecret = Uint8Array | (() => Promise<Uint8Array>);

/**
 * During a secret key rotation, the key a kind of token had before (server/key-ring.ts): tokens it signed are still
 * good, and it signs new ones until every node holds the new key (`signsNow`), so that every node accepts them.
 */
export interface PreviousJwtSecret {
  key: () => Promise<Uint8Array>;
  signsNow(): boolean;
}

/**
 * The time a token is checked at, from its claims (not yet verified: only to find the environment whose clock
 * counts); a forged claim still fails the signature.
 */
export type TimeOfClaims = (claims: JWTPayload) => Promise<number>;

/**
 * A CryptoKey, imported once: given raw bytes or a KeyObject, jose imports the key into WebCrypto again on every sign
 * and verify (≈66 µs of each socket's handshake in a profile of 10,000 opening, about 6% of its server CPU).
 */
function cryptoKeyOf(secret: JwtSecret): () => Promise<webcrypto.CryptoKey> {
  let key: Promise<webcrypto.CryptoKey> | undefined;
  return () => {
    key ??= (typeof secret === 'function' ? secret() : Promise.resolve(secret)).then(importHmacKey).catch((err) => {
      key = undefined; // a secret that failed to load is asked for again next time
      throw err;
    });
    return key;
  };
}

/**
 * HS256 JWTs of one kind (its own key and audience, so that a token of one kind never passes for
 * another), timed by the injected clock, or by the time the caller gives (an environment's test clock).
 * During a secret key rotation, `previous` is the key the kind had before: tokens it signed are still good, and
 * new ones are signed with the new key.
 */
export function createJwtCodec(secret: JwtSecret, clock: Clock, audience: string, previous?: PreviousJwtSecret) {
  const cryptoKey = cryptoKeyOf(secret);
  const previousKey = previous && cryptoKeyOf(previous.key);
  return {
    async sign(
      claims: Record<string, unknown>,
      subject: string,
      expiresAt: number,
      tokenId?: string,
      issuedAt = clock.now(),
    ): Promise<string> {
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(audience)
        .setSubject(subject)
        .setIssuedAt(Math.floor(issuedAt / 1000))
        .setExpirationTime(Math.floor(expiresAt / 1000));
      if (tokenId) jwt.setJti(tokenId);
      return jwt.sign(await (previous?.signsNow() && previousKey ? previousKey() : cryptoKey()));
    },

    async verify(token: string, timeOf?: TimeOfClaims): Promise<VerifiedJwt> {
      try {
        const now = timeOf ? await timeOf(decodeJwt(token)) : clock.now();
        const options = { algorithms: ['HS256'], issuer: ISSUER, audience, currentDate: new Date(now) };
        try {
          return { ok: true, payload: (await jwtVerify(token, await cryptoKey(), options)).payload };
        } catch (err) {
          // Signed with the previous key during a rotation: as good as a token signed with this one.
          if (!(previousKey && err instanceof joseErrors.JWSSignatureVerificationFailed)) throw err;
          return { ok: true, payload: (await jwtVerify(token, await previousKey(), options)).payload };
        }
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
        if (err instanceof joseErrors.JOSEError) return { ok: false, reason: 'invalid' };
        throw err;
      }
    },
  };
}

const importHmacKey = (secret: Uint8Array): Promise<webcrypto.CryptoKey> =>
  webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

/**
 * The `timeOf` of tokens scoped by `prj` and `env` claims: their environment's now. A token without them is checked
 * at real time (and then refused for lacking them).
 */
export const environmentTimeOf =
  (
    nowOf: (scope: { projectId: string; environment: 'development' | 'staging' | 'production' }) => Promise<number>,
    clock: Clock,
  ): TimeOfClaims =>
  async (claims) =>
    typeof claims.prj === 'string' && isEnvironmentClaim(claims.env)
      ? nowOf({ projectId: claims.prj, environment: claims.env })
      : clock.now();

export const isEnvironmentClaim = (value: unknown): value is 'development' | 'staging' | 'production' =>
  value === 'development' || value === 'staging' || value === 'production';
