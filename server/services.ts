import { createAuditService } from './audit/service.js';
import { createAuthService } from './auth/service.js';
import type { Infrastructure } from './context.js';
import { createKeyService } from './keys/service.js';
import { createMemberService } from './members/service.js';
import { createProjectService } from './projects/service.js';
import { createRoomService } from './rooms/service.js';
import { createSignalingHub } from './rtc/hub.js';
import { createRtcTokenService } from './rtc/token-service.js';
import { createTelemetryService } from './telemetry/service.js';

/** Domain services: where the rules live. Routes only parse, authorize, call one of these, present. */
export function createServices(infra: Infrastructure) {
  const audit = createAuditService(infra);
  const rooms = createRoomService(infra, audit);
  return {
    audit,
    auth: createAuthService(infra),
    projects: createProjectService(infra, audit),
    members: createMemberService(infra, audit),
    keys: createKeyService(infra, audit),
    rooms,
    rtcTokens: createRtcTokenService(infra, rooms),
    signaling: createSignalingHub(infra),
    telemetry: createTelemetryService(infra),
  };
}

export type Services = ReturnType<typeof createServices>;
