import { createAuditService } from './audit/service.js';
import { createAttemptLimits } from './auth/attempt-limits.js';
import { createAuthService } from './auth/service.js';
import { createSingleSignOnService } from './auth/sso/service.js';
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
import { createEnvironmentSnapshotService } from './environment-snapshots/service.js';
import { createFaultRules } from './faults/rules.js';
import { createFaultService } from './faults/service.js';
import { createKeyRateLimits } from './keys/rate-limit.js';
import { createKeyService } from './keys/service.js';
import { createLiveStreamService } from './live-streams/service.js';
import { createRoomMediaService } from './media/room-media.js';
import { createInvitationService } from './members/invitations.js';
import { createMemberService } from './members/service.js';
import { createLiveEventFeed } from './observability/live-events.js';
import { createObservabilityRecorder } from './observability/recorder.js';
import { createObservabilityService } from './observability/service.js';
import { createProjectService } from './projects/service.js';
import { createRecordingService } from './recordings/service.js';
import { createRoomService } from './rooms/service.js';
import { createSignalingHub } from './rtc/hub.js';
import type { IceServer } from './rtc/ice-servers.js';
import type { RtcMediaMode } from './rtc/protocol.js';
import { createRtcTokenService } from './rtc/token-service.js';
import { createSecretKeyRotationJob } from './secret-key-rotation/job.js';
import { createLimitWindows } from './security/limit-windows.js';
import { createSocketLimits } from './security/socket-limits.js';
import { createTelemetryService } from './telemetry/service.js';
import { createEnvironmentClocks } from './test-clock/clocks.js';
import { createTestClockService } from './test-clock/service.js';
import { createTriggerService } from './triggers/service.js';
import { createWebhookService } from './webhooks/service.js';

/** Domain services: where the rules live. Routes only parse, authorize, call one of these, present. */
/**
 * `observability: false` turns recording off: for the benchmark's baseline only (ServerOptions). `random` draws the
 * shares of injected faults (Math.random unless a test fixes it). `rtcMedia`: where `/v1/rtc`'s media goes
 * (ServerOptions `rtc.media`), which the signaling hub tells each participant as it joins. `iceServers`: what
 * `/v1/rtc` gives its clients.
 */
export function createServices(
  infra: Infrastructure,
  {
    observability = true,
    random = Math.random,
    rtcMedia,
    iceServers = [],
  }: {
    observability?: boolean;
    random?: () => number;
    rtcMedia?: RtcMediaMode;
    iceServers?: readonly IceServer[];
  } = {},
) {
  const audit = createAuditService(infra);
  /** Each environment's now (its test clock): what is timed within an environment asks it. */
  const clocks = createEnvironmentClocks(infra);
  const rooms = createRoomService(infra, audit);
  const roomMedia = createRoomMediaService(rooms);
  const conversations = createConversationService(infra);
  const attachments = createAttachmentService(infra, conversations);
  const messages = createMessageService(infra, conversations, attachments);
  const engagement = createEngagementService(infra, messages);
  const rtcTokens = createRtcTokenService(infra, rooms, audit, clocks);
  const signaling = createSignalingHub(infra, { media: rtcMedia, iceServers });
  const chatTokens = createChatTokenService(infra, clocks);
  const recorder = createObservabilityRecorder(infra, clocks, { enabled: observability });
  const invitations = createInvitationService(infra, audit);
  const limitWindows = createLimitWindows(infra, infra.cluster.redis);
  const realtime = createRealtimeHub(infra, conversations, messages, engagement);
  const faultRules = createFaultRules(infra, random);
  const auth = createAuthService(infra, invitations, createAttemptLimits(limitWindows, infra.mode));
  const recordings = createRecordingService(infra, audit, clocks);
  const liveStreams = createLiveStreamService(infra, { audit, rooms, conversations, rtcTokens, chatTokens, signaling });
  const environmentReset = createEnvironmentResetService(infra, audit, attachments);
  return {
    audit,
    clocks,
    testClock: createTestClockService(infra, audit, clocks),
    auth,
    singleSignOn: createSingleSignOnService(infra, auth),
    invitations,
    projects: createProjectService(infra, audit),
    members: createMemberService(infra, audit),
    keys: createKeyService(infra, audit),
    keyRateLimits: createKeyRateLimits(limitWindows, infra.security.keyRateLimit),
    socketLimits: createSocketLimits(infra, infra.security.webSockets),
    rooms,
    roomMedia,
    rtcTokens,
    signaling,
    telemetry: createTelemetryService(infra),
    chatTokens,
    conversations,
    messages,
    engagement,
    realtime,
    liveStreams,
    attachments,
    environmentReset,
    environmentSnapshots: createEnvironmentSnapshotService(infra, audit, environmentReset, () => recorder.flush()),
    triggers: createTriggerService(infra, audit, {
      conversations,
      messages,
      engagement,
      rooms,
      signaling,
      liveStreams,
    }),
    attachmentCleanup: createAttachmentCleanupJob(infra, attachments),
    secretKeyRotation: createSecretKeyRotationJob(infra),
    faults: createFaultService(infra, audit, faultRules, { realtime, signaling }),
    recordings,
    webhooks: createWebhookService(infra, audit, clocks, faultRules, recordings),
    observability: recorder,
    observabilityReads: createObservabilityService(infra, recorder.metrics, clocks),
    backups: createBackupService(infra, () => recorder.flush()),
    liveEvents: createLiveEventFeed(infra),
  };
}

export type Services = ReturnType<typeof createServices>;
