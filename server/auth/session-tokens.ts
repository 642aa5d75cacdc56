import type { Clock } from '../clock.js';
import { createJwtCodec, type JwtSecret, type PreviousJwtSecret } from './jwt.js';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionClaims {
  userId: string;
  sessionId: string;
}

/** Dashboard session JWTs. The `sid` claim names the session row that logout revokes. */
export function createSessionTokens(secret: JwtSecret, clock: Clock, previous?: PreviousJwtSecret) {
  const codec = createJwtCodec(secret, clock, 'switchboard:dashboard', previous);
  return {
    sign(claims: SessionClaims, expiresAt: number): Promise<string> {
      return codec.sign({ sid: claims.sessionId }, claims.userId, expiresAt);
    },

    /** The claims, or null for anything that is not a valid, unexpired session token of this server. */
    async verify(token: string): Promise<SessionClaims | null> {
      const verified = await codec.verify(token);
      if (!verified.ok) return null;
      const { sub, sid } = verified.payload;
      return typeof sub === 'string' && typeof sid === 'string' ? { userId: sub, sessionId: sid } : null;
    },
  };
}
