import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { KeyRing } from '../../key-ring.js';
import { createJwtCodec } from '../jwt.js';
import type { AuthorizationChecks } from './provider.js';

/**
 * Where a sign-in returns: a page of the dashboard on this server, or the CLI's loopback listener (RFC 8252),
 * which must prove with the verifier of `challenge` that it started the sign-in it redeems.
 */
export type ReturnTarget = { kind: 'dashboard'; path: string } | { kind: 'cli'; url: string; challenge: string };

/** What one sign-in keeps, in its flow cookie, from its start to the provider's answer. */
export interface Flow extends AuthorizationChecks {
  redirectUri: string;
  target: ReturnTarget;
}

/** What a grant stands for: a pending session (AuthService.signInVerifiedEmail) and who may redeem it. */
export interface GrantClaims {
  userId: string;
  sessionId: string;
  pendingUntil: number;
  challenge?: string;
}

/** Long enough to sign in at the provider (a password, a second factor), short enough not to linger. */
export const FLOW_TTL_MS = 10 * 60 * 1000;

/** S256, as PKCE has it: base64url(SHA-256(verifier)). */
export const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * The flow cookie and the grants, both signed with the server's single sign-on key (one audience each, so that
 * neither passes for the other): nothing of a sign-in in flight is stored server-side, so any node of a cluster
 * finishes what another started.
 */
export function createFlowTokens(keys: KeyRing, clock: Clock) {
  const key = keys.signingKey('sso-signing-key');
  const flows = createJwtCodec(key, clock, 'switchboard:sso-flow');
  const grants = createJwtCodec(key, clock, 'switchboard:sso-grant');
  return {
    signFlow: (flow: Flow) => flows.sign({ flow }, 'sso', clock.now() + FLOW_TTL_MS),

    async verifyFlow(token: string | undefined): Promise<Flow | null> {
      if (!token) return null;
      const verified = await flows.verify(token);
      return verified.ok ? ((verified.payload.flow as Flow | undefined) ?? null) : null;
    },

    signGrant: ({ userId, ...claims }: GrantClaims) => grants.sign(claims, userId, claims.pendingUntil),

    async verifyGrant(token: string): Promise<GrantClaims | null> {
      const verified = await grants.verify(token);
      if (!verified.ok) return null;
      const { sub, sessionId, pendingUntil, challenge } = verified.payload;
      if (typeof sub !== 'string' || typeof sessionId !== 'string' || typeof pendingUntil !== 'number') return null;
      return { userId: sub, sessionId, pendingUntil, ...(typeof challenge === 'string' && { challenge }) };
    },
  };
}
