/**
 * The SDK's types. Requests and answers come from the operations map (`Operations`, from ./contract.ts, which reads
 * them off the server's route table): `BodyOf<'createApiKey'>` is what that route's zod schema accepts,
 * `ResponseOf<'listApiKeys'>` what it answers. The names below are those types under the names the SDK has always
 * used; what no operation carries (enums, the live event stream's records, realtime and signaling frames) comes from
 * the contract directly.
 */
import type { LiveEvent, Operations } from './contract.js';

export type {
  ConversationRole,
  Environment,
  EnvironmentInput,
  LiveEvent,
  Operations,
  ProjectRole,
  RealtimeClientFrame,
  RealtimeMessageRecord,
  RealtimeServerFrame,
  SignalingClientFrame,
  SignalingServerFrame,
  SsoRefusal,
  WebhookEventType,
} from './contract.js';

/** The `operationId` of every operation of the API. */
export type OperationId = keyof Operations;

/** The JSON body an operation takes, by `operationId` (`undefined` where it takes none). */
export type BodyOf<Id extends OperationId> = Operations[Id]['body'];
/** The query an operation takes, by `operationId` (`undefined` where it takes none). */
export type QueryOf<Id extends OperationId> = Operations[Id]['query'];
/** What an operation answers, by `operationId` (`undefined` for a 204). */
export type ResponseOf<Id extends OperationId> = Operations[Id]['response'];

/** The live nodes of the server, and whether they hear each other (`GET /v1/server/nodes`, admin token). */
export type ServerNodeList = ResponseOf<'listServerNodes'>;
export type ServerNode = ServerNodeList['data'][number];

/** One page of a paged list: `nextCursor` is the `cursor` of the next page, null at the end. */
export type Page<Item> = Omit<ResponseOf<'listRooms'>, 'data'> & { data: Item[] };
/** A list that does not page: `{data}`. */
export type List<Item> = { data: Item[] };

// ── Accounts, projects, members, keys, audit ─────────────────────────────────────────────────────
export type RegisterInput = BodyOf<'register'>;
export type LoginInput = BodyOf<'login'>;
export type Session = ResponseOf<'login'>;
export type User = Session['user'];
/** Whether the server takes passwords, and its single sign-on provider, if any (`GET /v1/auth/methods`). */
export type SignInMethods = ResponseOf<'signInMethods'>;
/** The `grant` a single sign-on returned with, and the CLI's verifier (`POST /v1/auth/sso/redeem`). */
export type RedeemSignInGrantInput = BodyOf<'redeemSignInGrant'>;
/** The credential of the request: a signed-in user, or an API key's id, project and environment. */
export type Whoami = ResponseOf<'whoami'>;
/** `whoami` with a session token. */
export type SessionWhoami = Extract<Whoami, { type: 'session' }>;
/** `whoami` with an API key. */
export type KeyWhoami = Extract<Whoami, { type: 'api_key' }>;

export type CreateProjectInput = BodyOf<'createProject'>;
export type UpdateProjectInput = BodyOf<'updateProject'>;
export type Project = ResponseOf<'getProject'>;
export type ProjectList = ResponseOf<'listProjects'>;
/** What a role allows, e.g. `keys:manage`: a project lists the caller's, a member listing each member's. */
export type Capability = Project['capabilities'][number];
/** What `environments.reset` removed: `{environment, resetAt, removed: {rooms, conversations, messages, …}}`. */
export type EnvironmentReset = ResponseOf<'resetEnvironment'>;
/** A snapshot of an environment: `{name, environment, createdAt, createdBy, sizeBytes, counts: {rooms, messages, …}}`. */
export type EnvironmentSnapshot = ResponseOf<'saveEnvironmentSnapshot'>;
export type EnvironmentSnapshotList = ResponseOf<'listEnvironmentSnapshots'>;
/** What `snapshots.save` sends: `{name, replace?}`. */
export type SaveSnapshotInput = BodyOf<'saveEnvironmentSnapshot'>;
/** What `snapshots.restore` did: `{environment, snapshot, restoredAt, removed, restored}`, counted as a reset counts. */
export type EnvironmentSnapshotRestore = ResponseOf<'restoreEnvironmentSnapshot'>;
/**
 * An environment's test clock: `{environment, now, offsetMs, advancedAt}`, `now` being real time plus `offsetMs`
 * (`environments.clock`, `advanceClock`, `resetClock`).
 */
export type EnvironmentClock = ResponseOf<'getEnvironmentClock'>;
/** What `environments.advanceClock` sends: how many seconds forward (1 to 400 days' worth). */
export type AdvanceClockInput = BodyOf<'advanceEnvironmentClock'>;
/** A fault injected into an environment: `{id, environment, kind, percent, delayMs, createdAt, expiresAt}`. */
export type Fault = ResponseOf<'createEnvironmentFault'>;
/** `webhook.duplicate`, `webhook.out_of_order`, `webhook.delay`, `webhook.failure`, `api.unavailable`, `api.latency`. */
export type FaultKind = Fault['kind'];
/** `{kind, percent?, delayMs?, expiresInSeconds?}`. */
export type FaultInput = BodyOf<'createEnvironmentFault'>;
export type FaultList = ResponseOf<'listEnvironmentFaults'>;
export type RemovedFaults = ResponseOf<'clearEnvironmentFaults'>;
/** `{percent?, kind?: 'realtime' | 'signaling' | 'all'}`. */
export type DropSocketsInput = BodyOf<'dropEnvironmentSockets'>;
export type Recording = ResponseOf<'getEnvironmentRecording'>;
export type RecordingList = ResponseOf<'listEnvironmentRecordings'>;
export type StartRecordingInput = BodyOf<'startEnvironmentRecording'>;
/** A recording as HAR 1.2 (`downloadEnvironmentRecording`). */
export type HarFile = ResponseOf<'downloadEnvironmentRecording'>;
export type DroppedSockets = ResponseOf<'dropEnvironmentSockets'>;
/** What `environments.trigger` did: `{event, environment, triggeredAt, objects: {conversation?, message?, …}, events}`. */
export type TriggeredEvent = ResponseOf<'triggerEvent'>;
/** The ids of what a trigger created or acted on; only the kinds its event involves are present. */
export type TriggeredObjects = TriggeredEvent['objects'];
/** One event that can be triggered (every catalogue type), with what its trigger does and the events it emits. */
export type Trigger = ResponseOf<'listTriggers'>['data'][number];

export type AddMemberInput = BodyOf<'addMember'>;
export type UpdateMemberInput = BodyOf<'updateMember'>;
export type Member = ResponseOf<'addMember'>;
export type MemberList = ResponseOf<'listMembers'>;
export type CreateInvitationInput = BodyOf<'createInvitation'>;
export type Invitation = ResponseOf<'createInvitation'>;

export type CreateApiKeyInput = BodyOf<'createApiKey'>;
/** A new key: its metadata and, this once, the full `key` text. */
export type CreatedApiKey = ResponseOf<'createApiKey'>;
export type ApiKeyList = ResponseOf<'listApiKeys'>;
export type ApiKey = ApiKeyList['data'][number];

export type AuditQuery = QueryOf<'listAuditLog'>;
export type AuditPage = ResponseOf<'listAuditLog'>;
export type AuditEntry = AuditPage['data'][number];

// ── Rooms and RTC tokens ─────────────────────────────────────────────────────────────────────────
/** `{limit?, cursor?}` of a paged list. */
export type PageQuery = QueryOf<'listRooms'>;
export type CreateRoomInput = BodyOf<'createRoom'>;
export type Room = ResponseOf<'getRoom'>;
export type RoomPage = ResponseOf<'listRooms'>;
export type ParticipantList = ResponseOf<'listParticipants'>;
export type Participant = ParticipantList['data'][number];
/** A room's media as the server sees it (`rtc.media: 'sfu'`): each participant's tracks with their counters. */
export type RoomMedia = ResponseOf<'getProjectRoomMedia'>;
export type RoomMediaParticipant = RoomMedia['participants'][number];
export type TrackMedia = RoomMediaParticipant['tracks'][number];
export type CreateRtcTokenInput = BodyOf<'createRtcToken'>;
export type RtcToken = ResponseOf<'createRtcToken'>;

// ── Chat ─────────────────────────────────────────────────────────────────────────────────────────
export type CreateChatTokenInput = BodyOf<'createChatToken'>;
export type ChatToken = ResponseOf<'createChatToken'>;
export type CreateConversationInput = BodyOf<'createConversation'>;
export type UpdateConversationInput = BodyOf<'updateConversation'>;
export type ConversationListQuery = QueryOf<'listConversations'>;
export type Conversation = ResponseOf<'getConversation'>;
export type ConversationPage = ResponseOf<'listConversations'>;
export type AddConversationMemberInput = BodyOf<'addConversationMember'>;
export type ConversationMember = ResponseOf<'addConversationMember'>;
export type ConversationMemberList = ResponseOf<'listConversationMembers'>;
export type SendMessageInput = BodyOf<'sendMessage'>;
export type EditMessageInput = BodyOf<'editMessage'>;
export type MessageListQuery = QueryOf<'listMessages'>;
export type Message = ResponseOf<'getMessage'>;
export type MessagePage = ResponseOf<'listMessages'>;
export type ThreadQuery = QueryOf<'getThread'>;
export type Thread = ResponseOf<'getThread'>;
/** `{userId?}`: with an API key, the end user to act for. */
export type ActAsInput = QueryOf<'getMessage'>;
export type ReactionInput = BodyOf<'addReaction'>;
export type ReadState = ResponseOf<'getReadState'>;
export type ReadReceiptList = ResponseOf<'listReadReceipts'>;
export type ReadReceipt = ReadReceiptList['data'][number];
export type PresenceList = ResponseOf<'getPresence'>;
export type Presence = PresenceList['data'][number];
export type TypingList = ResponseOf<'getTyping'>;
export type Typing = TypingList['data'][number];
export type CreateAttachmentInput = BodyOf<'createAttachment'>;
export type CreatedAttachment = ResponseOf<'createAttachment'>;
export type Attachment = ResponseOf<'completeAttachment'>;
export type AttachmentDownloadUrl = ResponseOf<'getAttachmentDownloadUrl'>;
export type ChatOverview = ResponseOf<'getChatOverview'>;
export type InspectedConversationPage = ResponseOf<'inspectConversations'>;
export type InspectedConversation = InspectedConversationPage['data'][number];
export type ChatConnectionList = ResponseOf<'inspectChatConnections'>;
export type ChatConnection = ChatConnectionList['data'][number];

// ── Live streams ─────────────────────────────────────────────────────────────────────────────────
export type CreateLiveStreamInput = BodyOf<'createLiveStream'>;
export type UpdateLiveStreamInput = BodyOf<'updateLiveStream'>;
export type LiveStream = ResponseOf<'getLiveStream'>;
export type LiveStreamPage = ResponseOf<'listLiveStreams'>;
export type AddHostInput = BodyOf<'addLiveStreamHost'>;
export type HostCredential = ResponseOf<'addLiveStreamHost'>;
export type RemoveHostInput = QueryOf<'removeLiveStreamHost'>;
export type ViewerCredential = ResponseOf<'createViewerToken'>;
/** From the dashboard: `{identity, role}` (a member acts for the project, so no `invitedBy`). */
export type ProjectAddHostInput = BodyOf<'addProjectLiveStreamHost'>;
export type LiveStreamParticipantQuery = QueryOf<'listProjectLiveStreamParticipants'>;
export type LiveStreamParticipantPage = ResponseOf<'listProjectLiveStreamParticipants'>;
export type LiveStreamParticipant = LiveStreamParticipantPage['data'][number];

// ── Webhooks ─────────────────────────────────────────────────────────────────────────────────────
export type RegisterWebhookInput = BodyOf<'registerWebhook'>;
/** A new endpoint: its settings and, this once, the signing `secret`. */
export type RegisteredWebhook = ResponseOf<'registerWebhook'>;
export type UpdateWebhookInput = BodyOf<'updateWebhook'>;
export type WebhookEndpoint = ResponseOf<'getWebhook'>;
export type WebhookEndpointList = ResponseOf<'listWebhooks'>;
export type WebhookDelivery = ResponseOf<'getWebhookDelivery'>;
export type WebhookDeliveryPage = ResponseOf<'listWebhookDeliveries'>;
export type WebhookDeliveriesQuery = QueryOf<'listWebhookDeliveries'>;
export type WebhookDeliveryStatus = WebhookDelivery['status'];
/** One attempt of a delivery's `attemptLog`. */
export type WebhookAttempt = WebhookDelivery['attemptLog'][number];
/** The body a delivery POSTs on every attempt (takes `webhooks:manage`). */
export type WebhookDeliveryBody = ResponseOf<'getWebhookDeliveryBody'>;
export type WebhookCatalogue = ResponseOf<'listWebhookEventTypes'>;
export type WebhookCatalogueEntry = WebhookCatalogue['data'][number];

// ── Observability ────────────────────────────────────────────────────────────────────────────────
/** A signaling or realtime connection of the connection log (`disconnectedAt` null while open). */
export type Connection = ResponseOf<'getConnection'>;
export type ConnectionPage = ResponseOf<'listConnections'>;
export type ConnectionsQuery = QueryOf<'listConnections'>;
/** An error answer of a runtime route, from the error log. */
export type ErrorRecord = ResponseOf<'getError'>;
export type ErrorRecordPage = ResponseOf<'listErrors'>;
export type ErrorsQuery = QueryOf<'listErrors'>;
/** `{environment?, window?}`: `window` is e.g. `15m`, `1h`, `24h` (default 1h). */
export type MetricsQuery = QueryOf<'getMetrics'>;
export type Metrics = ResponseOf<'getMetrics'>;
export type Diagnostics = ResponseOf<'getDiagnostics'>;
/** `{environment?, month?}`: `month` is `YYYY-MM` (default the current one). */
export type UsageQuery = QueryOf<'getUsage'>;
export type Usage = ResponseOf<'getUsage'>;
export type LiveEventType = LiveEvent['type'];

export type TelemetryInput = BodyOf<'sendTelemetry'>;
export type TelemetryAccepted = ResponseOf<'sendTelemetry'>;

// ── Realtime and signaling frames (docs/realtime.md, docs/signaling.md) ──────────────────────────
/** A participant as the signaling socket describes it (as the REST participant list does). */
export type SignalingParticipant = Participant;
