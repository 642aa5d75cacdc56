import type { EnvironmentScope } from '../../db/scope.js';
import type { Actor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import { environmentTimeOf } from '../auth/jwt.js';
import { toIso, wholeSeconds } from '../clock.js';
import type { Infrastructure } from '../context.js';
import { randomString } from '../ids.js';
import type { RoomService } from '../rooms/service.js';
import { madeFromKey } from '../secrets.js';
import type { EnvironmentClocks } from '../test-clock/clocks.js';
import { type RequestedPermissions, resolvePermissions } from './permissions.js';
import { RTC_TOKEN_DEFAULT_TTL_SECONDS } from './schemas.js';
import { createRtcTokens } from './tokens.js';

/** RTC tokens, issued and checked by their environment's clock (a test clock advanced past `exp` expires them). */
export function createRtcTokenService(
  { store, keys, clock }: Infrastructure,
  rooms: RoomService,
  audit: AuditService,
  clocks: EnvironmentClocks,
) {
  const tokens = madeFromKey(keys.signingKey('rtc-signing-key'), (key) =>
    createRtcTokens(key, clock, keys.previousSigningKey('rtc-signing-key')),
  );
  const timeOf = environmentTimeOf(clocks.now, clock);
  return {
    verify: async (token: string) => (await tokens()).verify(token, timeOf),

    /**
     * A token for a room of the credential's own environment: another environment's room is a 404. Audited when a
     * dashboard user mints it (`auditedBy`): who was let into which room with which rights, never the token.
     */
    async mint(
      scope: EnvironmentScope,
      roomId: string,
      input: RequestedPermissions & { identity: string; name?: string; ttlSeconds?: number },
      auditedBy?: Actor,
    ) {
      const room = await rooms.get(scope, roomId);
      const permissions = resolvePermissions(input);
      const now = await clocks.now(scope);
      const expiresAt = wholeSeconds(now + (input.ttlSeconds ?? RTC_TOKEN_DEFAULT_TTL_SECONDS) * 1000);
      const token = await (await tokens()).sign(
        {
          ...scope,
          ...permissions,
          roomId: room.id,
          identity: input.identity,
          name: input.name ?? null,
          tokenId: randomString(16),
          expiresAt,
        },
        now,
      );
      if (auditedBy) {
        // Minting writes nothing else: the entry is the record that a token exists.
        await store.transaction((tx) =>
          audit.record(tx, {
            projectId: scope.projectId,
            actor: auditedBy,
            action: 'rtc_token.created',
            target: { type: 'room', id: room.id },
            environment: scope.environment,
            details: { identity: input.identity, ...permissions, expiresAt: toIso(expiresAt) },
          }),
        );
      }
      return { token, expiresAt, roomId: room.id, identity: input.identity, permissions };
    },
  };
}

export type RtcTokenService = ReturnType<typeof createRtcTokenService>;
