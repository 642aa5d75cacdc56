/**
 * The SDK's types, all derived from the zod schemas the server validates with (type-only imports:
 * no server code reaches a bundle). Responses are the schemas' output; requests their input.
 */
import type { z } from 'zod';
import type { auditEntrySchema, auditQuery } from '../server/audit/schemas.js';
import type { loginBody, registerBody, sessionSchema, userSchema, whoamiSchema } from '../server/auth/schemas.js';
import type {
  attachmentSchema,
  createAttachmentBody,
  createdAttachmentSchema,
  downloadUrlSchema,
} from '../server/chat/attachments/schemas.js';
import type {
  connectionSchema,
  inspectedConversationSchema,
  overviewSchema,
} from '../server/chat/inspection/schemas.js';

import type { presenceSchema, typingSchema } from '../server/chat/presence/schemas.js';
import type {
  actAsQuery,
  addMemberBody as addChatMemberBody,
  chatTokenSchema,
  conversationListQuery,
  conversationMemberSchema,
  conversationRoleSchema,
  conversationSchema,
  createChatTokenBody,
  createConversationBody,
  editMessageBody,
  messageListQuery,
  messagePageSchema,
  messageSchema,
  reactionBody,
  readReceiptSchema,
  readStateSchema,
  sendMessageBody,
  threadQuery,
  threadSchema,
  updateConversationBody,
} from '../server/chat/schemas.js';
import type { environmentQuery, environmentSchema } from '../server/environments.js';
import type { apiKeySchema, createdApiKeySchema, createKeyBody } from '../server/keys/schemas.js';
import type {
  addHostBody,
  createLiveStreamBody,
  dashboardAddHostBody,
  hostCredentialSchema,
  liveStreamParticipantSchema,
  liveStreamSchema,
  participantsQuery,
  removeHostQuery,
  updateLiveStreamBody,
  viewerCredentialSchema,
} from '../server/live-streams/schemas.js';
import type {
  addMemberBody,
  createInvitationBody,
  invitationSchema,
  memberSchema,
  roleSchema,
  updateMemberBody,
} from '../server/members/schemas.js';
import type {
  connectionSchema as connectionLogSchema,
  connectionsQuery,
  diagnosticsSchema,
  errorRecordSchema,
  errorsQuery,
  liveEventSchema,
  metricsQuery,
  metricsSchema,
  usageQuery,
  usageSchema,
} from '../server/observability/schemas.js';
import type { createProjectBody, projectSchema, updateProjectBody } from '../server/projects/schemas.js';
import type { createRoomBody, participantSchema, roomSchema } from '../server/rooms/schemas.js';
import type { ClientMessage, ParticipantView, ServerMessage } from '../server/rtc/protocol.js';
import type { createRtcTokenBody, rtcTokenSchema } from '../server/rtc/schemas.js';
import type { listOf, pageOf } from '../server/shared/schemas.js';
import type { telemetryAcceptedSchema, telemetryBody } from '../server/telemetry/schemas.js';
import type { eventTypeSchema } from '../server/webhooks/catalogue.js';
import type {
  catalogueEntrySchema,
  deliveriesQuery,
  deliveryBodySchema,
  registeredWebhookSchema,
  registerWebhookBody,
  updateWebhookBody,
  webhookDeliverySchema,
  webhookEndpointSchema,
} from '../server/webhooks/schemas.js';

/**
 * A request as the SDK takes it: the schema's input, except for fields the server lower-cases or
 * coerces before checking (environment, limit), whose zod input type is `unknown`; those take the
 * checked type instead, so that the compiler still catches a typo.
 */
export type RequestOf<S extends z.ZodType> = {
  [K in keyof z.input<S>]: unknown extends z.input<S>[K] ? z.output<S>[K & keyof z.output<S>] : z.input<S>[K];
};

/** `development`, `staging` or `production`. (The server also accepts these in any letter case.) */
export type Environment = z.output<typeof environmentSchema>;
/** `OWNER`, `ADMIN`, `DEVELOPER`, `VIEWER` or `BILLING`. */
export type ProjectRole = z.output<typeof roleSchema>;

export type RegisterInput = RequestOf<typeof registerBody>;
export type LoginInput = RequestOf<typeof loginBody>;
export type User = z.output<typeof userSchema>;
export type Session = z.output<typeof sessionSchema>;
/** The credential of the request: a signed-in user, or an API key's id, project and environment. */
export type Whoami = z.output<typeof whoamiSchema>;
/** `whoami` with a session token. */
export type SessionWhoami = Extract<Whoami, { type: 'session' }>;
/** `whoami` with an API key. */
export type KeyWhoami = Extract<Whoami, { type: 'api_key' }>;

export type CreateProjectInput = RequestOf<typeof createProjectBody>;
export type UpdateProjectInput = RequestOf<typeof updateProjectBody>;
export type Project = z.output<typeof projectSchema>;
/** What a role allows, e.g. `keys:manage`: a project lists the caller's, a member listing each member's. */
export type Capability = Project['capabilities'][number];

export type AddMemberInput = RequestOf<typeof addMemberBody>;
export type CreateInvitationInput = RequestOf<typeof createInvitationBody>;
export type Invitation = z.output<typeof invitationSchema>;
export type UpdateMemberInput = RequestOf<typeof updateMemberBody>;
export type Member = z.output<typeof memberSchema>;

export type CreateApiKeyInput = RequestOf<typeof createKeyBody>;
/** `{environment?}`: the environment a key operation acts in (development when omitted). */
export type EnvironmentInput = RequestOf<typeof environmentQuery>;
export type ApiKey = z.output<typeof apiKeySchema>;
/** A new key: its metadata and, this once, the full `key` text. */
export type CreatedApiKey = z.output<typeof createdApiKeySchema>;

export type AuditQuery = RequestOf<typeof auditQuery>;
export type AuditEntry = z.output<typeof auditEntrySchema>;

/** One page of a paged list: `nextCursor` is the `cursor` of the next page, null at the end. */
export type Page<Item extends z.ZodType> = z.output<ReturnType<typeof pageOf<Item>>>;
/** A list that does not page: `{data}`. */
export type List<Item extends z.ZodType> = z.output<ReturnType<typeof listOf<Item>>>;

export type ProjectList = List<typeof projectSchema>;
export type MemberList = List<typeof memberSchema>;
export type ApiKeyList = List<typeof apiKeySchema>;
export type AuditPage = Page<typeof auditEntrySchema>;

// ── Rooms and RTC tokens ─────────────────────────────────────────────────────────────────────────
export type CreateRoomInput = RequestOf<typeof createRoomBody>;
export type Room = z.output<typeof roomSchema>;
export type RoomPage = Page<typeof roomSchema>;
export type Participant = z.output<typeof participantSchema>;
export type ParticipantList = List<typeof participantSchema>;
export type PageQuery = { limit?: number; cursor?: string };
export type CreateRtcTokenInput = RequestOf<typeof createRtcTokenBody>;
export type RtcToken = z.output<typeof rtcTokenSchema>;
/** The signaling socket's messages (`/v1/rtc`, docs/signaling.md): what the server sends, what a client sends. */
export type SignalingServerMessage = ServerMessage;
export type SignalingClientMessage = ClientMessage;
/** A participant as the signaling socket describes it: identity, display name, joined time, rights. */
export type SignalingParticipant = ParticipantView;

// ── Chat ─────────────────────────────────────────────────────────────────────────────────────────
export type ConversationRole = z.output<typeof conversationRoleSchema>;
export type CreateChatTokenInput = RequestOf<typeof createChatTokenBody>;
export type ChatToken = z.output<typeof chatTokenSchema>;
export type CreateConversationInput = RequestOf<typeof createConversationBody>;
export type UpdateConversationInput = RequestOf<typeof updateConversationBody>;
export type ConversationListQuery = RequestOf<typeof conversationListQuery>;
export type Conversation = z.output<typeof conversationSchema>;
export type ConversationPage = Page<typeof conversationSchema>;
export type AddConversationMemberInput = RequestOf<typeof addChatMemberBody>;
export type ConversationMember = z.output<typeof conversationMemberSchema>;
export type ConversationMemberList = List<typeof conversationMemberSchema>;
export type SendMessageInput = RequestOf<typeof sendMessageBody>;
export type EditMessageInput = RequestOf<typeof editMessageBody>;
export type MessageListQuery = RequestOf<typeof messageListQuery>;
export type Message = z.output<typeof messageSchema>;
export type MessagePage = z.output<typeof messagePageSchema>;
export type ThreadQuery = RequestOf<typeof threadQuery>;
export type Thread = z.output<typeof threadSchema>;
/** `{userId?}`: with an API key, the end user to act for. */
export type ActAsInput = RequestOf<typeof actAsQuery>;
export type ReactionInput = RequestOf<typeof reactionBody>;
export type ReadState = z.output<typeof readStateSchema>;
export type ReadReceipt = z.output<typeof readReceiptSchema>;
export type ReadReceiptList = List<typeof readReceiptSchema>;
export type Presence = z.output<typeof presenceSchema>;
export type PresenceList = List<typeof presenceSchema>;
export type Typing = z.output<typeof typingSchema>;
export type TypingList = List<typeof typingSchema>;
export type CreateAttachmentInput = RequestOf<typeof createAttachmentBody>;
export type Attachment = z.output<typeof attachmentSchema>;
export type CreatedAttachment = z.output<typeof createdAttachmentSchema>;
export type AttachmentDownloadUrl = z.output<typeof downloadUrlSchema>;
export type ChatOverview = z.output<typeof overviewSchema>;
export type InspectedConversation = z.output<typeof inspectedConversationSchema>;
export type InspectedConversationPage = Page<typeof inspectedConversationSchema>;
export type ChatConnection = z.output<typeof connectionSchema>;
export type ChatConnectionList = List<typeof connectionSchema>;

// ── Live streams ─────────────────────────────────────────────────────────────────────────────────
export type CreateLiveStreamInput = RequestOf<typeof createLiveStreamBody>;
export type UpdateLiveStreamInput = RequestOf<typeof updateLiveStreamBody>;
export type AddHostInput = RequestOf<typeof addHostBody>;
export type RemoveHostInput = RequestOf<typeof removeHostQuery>;
export type LiveStream = z.output<typeof liveStreamSchema>;
export type LiveStreamPage = Page<typeof liveStreamSchema>;
export type HostCredential = z.output<typeof hostCredentialSchema>;
export type ViewerCredential = z.output<typeof viewerCredentialSchema>;
/** From the dashboard: `{identity, role}` (a member acts for the project, so no `invitedBy`). */
export type ProjectAddHostInput = RequestOf<typeof dashboardAddHostBody>;
export type LiveStreamParticipantQuery = RequestOf<typeof participantsQuery>;
export type LiveStreamParticipant = z.output<typeof liveStreamParticipantSchema>;
export type LiveStreamParticipantPage = Page<typeof liveStreamParticipantSchema>;

// ── Webhooks ─────────────────────────────────────────────────────────────────────────────────────
export type RegisterWebhookInput = RequestOf<typeof registerWebhookBody>;
export type UpdateWebhookInput = RequestOf<typeof updateWebhookBody>;
export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;
export type WebhookEndpointList = List<typeof webhookEndpointSchema>;
/** A new endpoint: its settings and, this once, the signing `secret`. */
export type RegisteredWebhook = z.output<typeof registeredWebhookSchema>;
export type WebhookDelivery = z.output<typeof webhookDeliverySchema>;
export type WebhookDeliveryPage = Page<typeof webhookDeliverySchema>;
export type WebhookDeliveryStatus = WebhookDelivery['status'];
/** One attempt of a delivery's `attemptLog`. */
export type WebhookAttempt = WebhookDelivery['attemptLog'][number];
/** The body a delivery POSTs on every attempt (takes `webhooks:manage`). */
export type WebhookDeliveryBody = z.output<typeof deliveryBodySchema>;
/** On an environment-scoped dashboard route the environment is a query field the route table adds (`queryOf`). */
export type WebhookDeliveriesQuery = RequestOf<typeof deliveriesQuery> & EnvironmentInput;
export type WebhookEventType = z.output<typeof eventTypeSchema>;
export type WebhookCatalogueEntry = z.output<typeof catalogueEntrySchema>;
export type WebhookCatalogue = List<typeof catalogueEntrySchema>;

// ── Observability ────────────────────────────────────────────────────────────────────────────────
/** A signaling or realtime connection of the connection log (`disconnectedAt` null while open). */
export type Connection = z.output<typeof connectionLogSchema>;
export type ConnectionPage = Page<typeof connectionLogSchema>;
export type ConnectionsQuery = RequestOf<typeof connectionsQuery> & EnvironmentInput;
/** An error answer of a runtime route, from the error log. */
export type ErrorRecord = z.output<typeof errorRecordSchema>;
export type ErrorRecordPage = Page<typeof errorRecordSchema>;
export type ErrorsQuery = RequestOf<typeof errorsQuery> & EnvironmentInput;
/** `{environment?, window?}`: `window` is e.g. `15m`, `1h`, `24h` (default 1h). */
export type MetricsQuery = RequestOf<typeof metricsQuery> & EnvironmentInput;
export type Metrics = z.output<typeof metricsSchema>;
export type Diagnostics = z.output<typeof diagnosticsSchema>;
/** `{environment?, month?}`: `month` is `YYYY-MM` (default the current one). */
export type UsageQuery = RequestOf<typeof usageQuery> & EnvironmentInput;
export type Usage = z.output<typeof usageSchema>;
/** One record of the live event stream: `type`, `at`, `environment` and `data` (metadata only). */
export type LiveEvent = z.output<typeof liveEventSchema>;
export type LiveEventType = LiveEvent['type'];

export type TelemetryInput = RequestOf<typeof telemetryBody>;
export type TelemetryAccepted = z.output<typeof telemetryAcceptedSchema>;
