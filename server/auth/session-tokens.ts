import { createSecretKey } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../clock.js';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const ISSUER = 'switchboard';
const AUDIENCE = 'switchboard:dashboard';

export interface SessionClaims {
  userId: string;
  sessionId: string;
}

/** Dashboard session JWTs (HS256). The `sid` claim names the session row that logout revokes. */
export function createSessionTokens(secret: Uint8Array, clock: Clock) {
  // A KeyObject, made once: given raw bytes, jose would import the key again on every sign and verify.
  const key = createSecretKey(secret);
  return {
    sign(claims: SessionClaims, expiresAt: number): Promise<string> {
      return new SignJWT({ sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(Math.floor(clock.now() / 1000))
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(key);
    },

    /** The claims, or null for anything that is not a valid, unexpired session token of this server. */
    async verify(token: string): Promise<SessionClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: new Date(clock.now()),
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        return { userId: payload.sub, sessionId: payload.sid };
      } catch (err) {
        if (err instanceof joseErrors.JOSEError) return null;
        throw err;
      }
    },
  };
}
