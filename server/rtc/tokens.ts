import { createSecretKey } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Environment } from '../../db/schema/environment.js';
import type { Clock } from '../clock.js';
import type { RtcPermissions } from './permissions.js';

const ISSUER = 'switchboard';
const AUDIENCE = 'switchboard:rtc';

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
 * RTC tokens (HS256 JWTs signed with the server's RTC key). Claims: `prj`, `env`, `room`,
 * `identity` (also `sub`), `name`, the four publish flags and `subscribe`, `jti`, `iat`, `exp`.
 */
export function createRtcTokens(secret: Uint8Array, clock: Clock) {
  // A KeyObject, made once: given raw bytes, jose would import the key again on every sign and verify.
  const key = createSecretKey(secret);
  return {
    sign(claims: RtcTokenClaims): Promise<string> {
      return new SignJWT({
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
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(claims.identity)
        .setJti(claims.tokenId)
        .setIssuedAt(Math.floor(clock.now() / 1000))
        .setExpirationTime(Math.floor(claims.expiresAt / 1000))
        .sign(key);
    },

    /** The claims, or why the token is refused: `expired` or `invalid`. */
    async verify(
      token: string,
    ): Promise<{ ok: true; claims: RtcTokenClaims } | { ok: false; reason: 'expired' | 'invalid' }> {
      try {
        const { payload: p } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: new Date(clock.now()),
        });
        const env = p.env;
        if (
          typeof p.prj !== 'string' ||
          typeof p.room !== 'string' ||
          typeof p.identity !== 'string' ||
          (env !== 'development' && env !== 'staging' && env !== 'production')
        ) {
          return { ok: false, reason: 'invalid' };
        }
        return {
          ok: true,
          claims: {
            projectId: p.prj,
            environment: env,
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
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
        if (err instanceof joseErrors.JOSEError) return { ok: false, reason: 'invalid' };
        throw err;
      }
    },
  };
}

export type RtcTokens = ReturnType<typeof createRtcTokens>;
