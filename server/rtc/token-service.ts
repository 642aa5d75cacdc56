import type { EnvironmentScope } from '../../db/scope.js';
import { wholeSeconds } from '../clock.js';
import type { Infrastructure } from '../context.js';
import { randomString } from '../ids.js';
import type { RoomService } from '../rooms/service.js';
import { loadOrCreateSecret } from '../secrets.js';
import { type RequestedPermissions, resolvePermissions } from './permissions.js';
import { RTC_TOKEN_DEFAULT_TTL_SECONDS } from './schemas.js';
import { createRtcTokens } from './tokens.js';

export function createRtcTokenService({ db, clock }: Infrastructure, rooms: RoomService) {
  const tokens = createRtcTokens(loadOrCreateSecret(db, clock, 'rtc-signing-key'), clock);
  return {
    verify: tokens.verify,

    /** A token for a room of the key's own environment: another environment's room is a 404. */
    async mint(
      scope: EnvironmentScope,
      roomId: string,
      input: RequestedPermissions & { identity: string; name?: string; ttlSeconds?: number },
    ) {
      const room = rooms.get(scope, roomId);
      const permissions = resolvePermissions(input);
      const expiresAt = wholeSeconds(clock.now() + (input.ttlSeconds ?? RTC_TOKEN_DEFAULT_TTL_SECONDS) * 1000);
      const token = await tokens.sign({
        ...scope,
        ...permissions,
        roomId: room.id,
        identity: input.identity,
        name: input.name ?? null,
        tokenId: randomString(16),
        expiresAt,
      });
      return { token, expiresAt, roomId: room.id, identity: input.identity, permissions };
    },
  };
}

export type RtcTokenService = ReturnType<typeof createRtcTokenService>;
