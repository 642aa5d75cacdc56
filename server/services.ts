import { createAuditService } from './audit/service.js';
import { createAttemptLimits } from './auth/attempt-limits.js';
import { createAuthService } from './auth/service.js';
import { createBackupService } from './backups/service.js';
import { createAttachmentCleanupJob } from './chat/attachments/cleanup-job.js';
import { createAttachmentService } from './chat/attachments/service.js';
import { createConversationService } from './chat/conversations/service.js';
import { createEngagementService } from './chat/engagement/service.js';
import { createMessageService } from './chat/messages/service.js';
import { createRealtimeHub } from './chat/realtime/hub.js';
import { createChatTokenService } from './chat/tokens/service.js';
import type { Infrastructure } from './context.js';
import { createEnvironmentResetService } from './environment-reset/service.js';
import { createKeyRateLimits } from './keys/rate-limit.js';
import { createKeyService } from './keys/service.js';
import { createLiveStreamService } from './live-streams/service.js';
import { createInvitationService } from './members/invitations.js';
import { createMemberService } from './members/service.js';
import { createLiveEventFeed } from './observability/live-events.js';
import { createObservabilityRecorder } from './observability/recorder.js';
import { createObservabilityService } from './observability/service.js';
import { createProjectService } from './projects/service.js';
import { createRoomService } from './rooms/service.js';
import { createSignalingHub } from './rtc/hub.js';
import { createRtcTokenService } from './rtc/token-service.js';
import { createLimitWindows } from './security/limit-windows.js';
import { createSocketLimits } from './security/socket-limits.js';
import { createTelemetryService } from './telemetry/service.js';
import { createTriggerService } from './triggers/service.js';
import { createWebhookService } from './webhooks/service.js';

/** Domain services: where the rules live. Routes only parse, authorize, call one of these, present. */
/** `observability: false` turns recording off: for the benchmark's baseline only (ServerOptions). */
export function createServices(infra: Infrastructure, { observability = true }: { observability?: boolean } = {}) {
  const audit = createAuditService(infra);
  const rooms = createRoomService(infra, audit);
  const conversations = createConversationService(infra);
  const attachments = createAttachmentService(infra, conversations);
  const messages = createMessageService(infra, conversations, attachments);
  const engagement = createEngagementService(infra, messages);
  const rtcTokens = createRtcTokenService(infra, rooms, audit);
  const signaling = createSignalingHub(infra);
  const chatTokens = createChatTokenService(infra);
  const recorder = createObservabilityRecorder(infra, { enabled: observability });
  const invitations = createInvitationService(infra, audit);
  const limitWindows = createLimitWindows(infra, infra.cluster.redis);
  const liveStreams = createLiveStreamService(infra, { audit, rooms, conversations, rtcTokens, chatTokens, signaling });
  return {
    audit,
    auth: createAuthService(infra, invitations, createAttemptLimits(limitWindows, infra.mode)),
    invitations,
    projects: createProjectService(infra, audit),
    members: createMemberService(infra, audit),
    keys: createKeyService(infra, audit),
    keyRateLimits: createKeyRateLimits(limitWindows, infra.security.keyRateLimit),
    socketLimits: createSocketLimits(infra, infra.security.webSockets),
    rooms,
    rtcTokens,
    signaling,
    telemetry: createTelemetryService(infra),
    chatTokens,
    conversations,
    messages,
    engagement,
    realtime: createRealtimeHub(infra, conversations, messages, engagement),
    liveStreams,
    attachments,
    environmentReset: createEnvironmentResetService(infra, audit, attachments),
    triggers: createTriggerService(infra, audit, {
      conversations,
      messages,
      engagement,
      rooms,
      signaling,
      liveStreams,
    }),
    attachmentCleanup: createAttachmentCleanupJob(infra, attachments),
    webhooks: createWebhookService(infra, audit),
    observability: recorder,
    observabilityReads: createObservabilityService(infra, recorder.metrics),
    backups: createBackupService(infra, () => recorder.flush()),
    liveEvents: createLiveEventFeed(infra),
  };
}

export type Services = ReturnType<typeof createServices>;
