import { auditRoutes } from './audit/routes.js';
import { authRoutes } from './auth/routes.js';
import { singleSignOnRoutes } from './auth/sso/routes.js';
import { attachmentRoutes } from './chat/attachments/routes.js';
import { conversationRoutes } from './chat/conversations/routes.js';
import { readRoutes } from './chat/engagement/routes.js';
import { chatInspectionRoutes } from './chat/inspection/routes.js';
import { messageRoutes } from './chat/messages/routes.js';
import { liveRoutes } from './chat/presence/routes.js';
import { chatTokenRoutes } from './chat/tokens/routes.js';
import { clusterRoutes } from './cluster/routes.js';
import { environmentResetRoutes } from './environment-reset/routes.js';
import { environmentSnapshotRoutes } from './environment-snapshots/routes.js';
import { faultRoutes } from './faults/routes.js';
import type { AnyRoute } from './http/route.js';
import { keyRoutes } from './keys/routes.js';
import { liveStreamRoutes } from './live-streams/routes.js';
import { memberRoutes } from './members/routes.js';
import { observabilityRoutes } from './observability/routes.js';
import { projectRoutes } from './projects/routes.js';
import { recordingRoutes } from './recordings/routes.js';
import { roomRoutes } from './rooms/routes.js';
import { telemetryRoutes } from './telemetry/routes.js';
import { testClockRoutes } from './test-clock/routes.js';
import { triggerRoutes } from './triggers/routes.js';
import { webhookRoutes } from './webhooks/routes.js';

/**
 * Every `/v1` route: the server mounts this table, the OpenAPI document describes it, and its types make the SDK's
 * operations map (server/operations.ts). Not annotated, so that each route keeps its own types.
 */
export const routes = [
  ...authRoutes,
  ...singleSignOnRoutes,
  ...projectRoutes,
  ...environmentResetRoutes,
  ...environmentSnapshotRoutes,
  ...testClockRoutes,
  ...faultRoutes,
  ...recordingRoutes,
  ...triggerRoutes,
  ...memberRoutes,
  ...keyRoutes,
  ...auditRoutes,
  ...roomRoutes,
  ...telemetryRoutes,
  ...chatTokenRoutes,
  ...conversationRoutes,
  ...messageRoutes,
  ...readRoutes,
  ...liveRoutes,
  ...chatInspectionRoutes,
  ...liveStreamRoutes,
  ...attachmentRoutes,
  ...webhookRoutes,
  ...observabilityRoutes,
  ...clusterRoutes,
] satisfies readonly AnyRoute[];
