import type { Environment } from '../../db/schema/environment.js';
import { createJwtCodec, isEnvironmentClaim, type PreviousJwtSecret, type TimeOfClaims } from '../auth/jwt.js';
import type { Clock } from '../clock.js';
import type { RtcPermissions } from './permissions.js';

export interface RtcTokenClaims extends RtcPermissions {
  projectId: string;
  environment: Environment;
  roomId: string;
  identity: string;
  /** Display name, if the minting server gave one. */
  name: string | null;
  tokenId: string;
  expiresAt: number;
}

/**
 * RTC tokens. Claims: `prj`, `env`, `room`, `identity` (also `sub`), `name`, the four publish flags
 * and `subscribe`, `jti`, `iat`, `exp`.
 */
export function createRtcTokens(secret: Uint8Array, clock: Clock, previous?: PreviousJwtSecret) {
  const codec = createJwtCodec(secret, clock, 'switchboard:rtc', previous);
  return {
    /** Issued at `issuedAt`: the environment's now. */
    sign(claims: RtcTokenClaims, issuedAt: number): Promise<string> {
      return codec.sign(
        {
          prj: claims.projectId,
          env: claims.environment,
          room: claims.roomId,
          identity: claims.identity,
          ...(claims.name ? { name: claims.name } : {}),
          publish: claims.publish,
          publishAudio: claims.publishAudio,
          publishVideo: claims.publishVideo,
          publishData: claims.publishData,
          subscribe: claims.subscribe,
        },
        claims.identity,
        claims.expiresAt,
        claims.tokenId,
        issuedAt,
      );
    },

    /** The claims, or why the token is refused: `expired` or `invalid`. */
    async verify(
      token: string,
      timeOf?: TimeOfClaims,
    ): Promise<{ ok: true; claims: RtcTokenClaims } | { ok: false; reason: 'expired' | 'invalid' }> {
      const verified = await codec.verify(token, timeOf);
      if (!verified.ok) return verified;
      const p = verified.payload;
      if (
        typeof p.prj !== 'string' ||
        typeof p.room !== 'string' ||
        typeof p.identity !== 'string' ||
        !isEnvironmentClaim(p.env)
      ) {
        return { ok: false, reason: 'invalid' };
      }
      return {
        ok: true,
        claims: {
          projectId: p.prj,
          environment: p.env,
          roomId: p.room,
          identity: p.identity,
          name: typeof p.name === 'string' ? p.name : null,
          publish: p.publish === true,
          publishAudio: p.publishAudio === true,
          publishVideo: p.publishVideo === true,
          publishData: p.publishData === true,
          subscribe: p.subscribe === true,
          tokenId: String(p.jti ?? ''),
          expiresAt: (p.exp ?? 0) * 1000,
        },
      };
    },
  };
}

export type RtcTokens = ReturnType<typeof createRtcTokens>;
