// The browser-safe SDK: only `fetch`. Node servers import `sdk/node.js`, which adds verifyWebhook.

export { AdminClient, type AdminClientOptions } from './admin-client.js';
export type {
  AttachmentsResource,
  ConversationMembersResource,
  ConversationsResource,
  MessagesResource,
  ReactionsResource,
  UploadInput,
} from './chat/resources.js';
export {
  ChatClient,
  type ChatClientOptions,
  type ChatEvent,
  type ChatEventType,
  type ChatLifecycleEvents,
  type RealtimeMessage,
  type ReconnectOptions,
  type WebSocketConstructor,
  type WebSocketLike,
} from './chat-client.js';
export type { FaultsResource } from './console/faults.js';
export type { LiveEventStream, LiveEventsOptions, ObservabilityResource } from './console/observability.js';
export type { RecordingsResource } from './console/recordings.js';
export { describeSsoRefusal, type SsoRefusalText } from './console/single-sign-on.js';
export { ConsoleClient, type ConsoleClientOptions } from './console-client.js';
export {
  ENVIRONMENTS,
  FAULT_KINDS,
  PROJECT_ROLES,
  RESET_COUNT_LABELS,
  resetCounts,
  WEBHOOK_DELIVERY_STATUSES,
} from './enums.js';
export { NETWORK_ERROR, SwitchboardError, UNEXPECTED_RESPONSE } from './errors.js';
export { paginate } from './paginate.js';
export {
  type PeerStats,
  RtcClient,
  type RtcClientEvents,
  RtcJoinError,
  type RtcJoinOptions,
  type RtcReconnectCause,
} from './rtc-client.js';
export { ServerClient, type ServerClientOptions } from './server-client.js';
export { TelemetryClient, type TelemetryClientOptions } from './telemetry-client.js';
export { type ClientOptions, DEFAULT_BASE_URL } from './transport.js';
export type * from './types.js';
