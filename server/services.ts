import { createAuditService } from './audit/service.js';
import { createAuthService } from './auth/service.js';
import type { Infrastructure } from './context.js';
import { createKeyService } from './keys/service.js';
import { createMemberService } from './members/service.js';
import { createProjectService } from './projects/service.js';
import { createWebhookService } from './webhooks/service.js';

/** Domain services: where the rules live. Routes only parse, authorize, call one of these, present. */
export function createServices(infra: Infrastructure) {
  const audit = createAuditService(infra);
  return {
    audit,
    auth: createAuthService(infra),
    projects: createProjectService(infra, audit),
    members: createMemberService(infra, audit),
    keys: createKeyService(infra, audit),
    webhooks: createWebhookService(infra, audit),
  };
}

export type Services = ReturnType<typeof createServices>;
