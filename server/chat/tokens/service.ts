import type { ConversationRole } from '../../../db/schema/chat.js';
import type { EnvironmentScope } from '../../../db/scope.js';
import { createJwtCodec, environmentTimeOf, isEnvironmentClaim } from '../../auth/jwt.js';
import { wholeSeconds } from '../../clock.js';
import type { Infrastructure } from '../../context.js';
import type { EnvironmentClocks } from '../../test-clock/clocks.js';

export const CHAT_TOKEN_DEFAULT_TTL_SECONDS = 24 * 3600;
export const CHAT_TOKEN_MAX_TTL_SECONDS = 30 * 24 * 3600;

export interface ChatTokenClaims extends EnvironmentScope {
  /** The end user; every message sent with the token is theirs. */
  userId: string;
  /** MEMBER, unless a live-stream credential raised it. */
  scope: ConversationRole;
}

/**
 * Chat tokens: claims `prj`, `env`, `senderId` (also `sub`), `scope`, `iat`, `exp`. Issued and checked by their
 * environment's clock, so that advancing a test clock past `exp` expires them.
 */
export function createChatTokenService({ keys, clock }: Infrastructure, clocks: EnvironmentClocks) {
  const codec = createJwtCodec(
    keys.signingKey('chat-signing-key'),
    clock,
    'switchboard:chat',
    keys.previousSigningKey('chat-signing-key'),
  );
  const timeOf = environmentTimeOf(clocks.now, clock);
  return {
    async mint(claims: ChatTokenClaims, ttlSeconds = CHAT_TOKEN_DEFAULT_TTL_SECONDS) {
      const now = await clocks.now(claims);
      const expiresAt = wholeSeconds(now + ttlSeconds * 1000);
      const token = await codec.sign(
        { prj: claims.projectId, env: claims.environment, senderId: claims.userId, scope: claims.scope },
        claims.userId,
        expiresAt,
        undefined,
        now,
      );
      return { token, expiresAt };
    },

    async verify(token: string): Promise<ChatTokenClaims | null> {
      const verified = await codec.verify(token, timeOf);
      if (!verified.ok) return null;
      const p = verified.payload;
      const scope = p.scope === 'ADMIN' || p.scope === 'MODERATOR' ? p.scope : 'MEMBER';
      if (typeof p.prj !== 'string' || typeof p.senderId !== 'string' || !isEnvironmentClaim(p.env)) return null;
      return { projectId: p.prj, environment: p.env, userId: p.senderId, scope };
    },
  };
}

export type ChatTokenService = ReturnType<typeof createChatTokenService>;
