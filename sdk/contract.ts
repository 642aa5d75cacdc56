/**
 * Every type the SDK reads off the server: the operations of the route table and the few schemas no operation
 * carries (enums, the live event stream's records, realtime and signaling frames). This is the SDK's one door to
 * server/: no other SDK module imports from it. In this repository the types are computed from the route table and
 * its zod schemas; the build of the `@switchboard/sdk` package (build/sdk-package.mjs) writes each one out as the
 * plain type it comes to, so that the package's declarations import nothing of the server or of zod. Type-only
 * imports: no server code reaches a bundle.
 */
import type * as z from 'zod';
import type { ssoRefusalSchema } from '../server/auth/sso/schemas.js';
import type {
  realtimeClientMessage,
  realtimeMessageSchema,
  realtimeServerMessage,
} from '../server/chat/realtime/protocol.js';
import type { conversationRoleSchema } from '../server/chat/schemas.js';
import type { environmentQuery, environmentSchema } from '../server/environments.js';
import type { roleSchema } from '../server/members/schemas.js';
import type { liveEventSchema } from '../server/observability/schemas.js';
import type { RequestOf, Operations as ServerOperations } from '../server/operations.js';
import type { CLOSE, clientMessage, serverMessage } from '../server/rtc/protocol.js';
import type { eventTypeSchema } from '../server/webhooks/catalogue.js';

/** Every operation of the API by `operationId`: `Operations['listApiKeys']['response']` is what that route answers. */
export type Operations = ServerOperations;

/** `development`, `staging` or `production`. (The server also accepts these in any letter case.) */
export type Environment = z.output<typeof environmentSchema>;
/** `OWNER`, `ADMIN`, `DEVELOPER`, `VIEWER` or `BILLING`. */
export type ProjectRole = z.output<typeof roleSchema>;
/** `{environment?}`: the environment a dashboard call acts in (development when omitted). */
export type EnvironmentInput = RequestOf<ReturnType<typeof environmentQuery>>;
/** A member's role in a conversation. */
export type ConversationRole = z.output<typeof conversationRoleSchema>;
/** Why a single sign-on was refused: the `error` its return address carries (`describeSsoRefusal` says it). */
export type SsoRefusal = z.output<typeof ssoRefusalSchema>;
/** A webhook event type of the catalogue. */
export type WebhookEventType = z.output<typeof eventTypeSchema>;
/** One record of the live event stream (`streamEvents`): `type`, `at`, `environment` and `data` (metadata only). */
export type LiveEvent = z.output<typeof liveEventSchema>;
/** A message as realtime events carry it. */
export type RealtimeMessageRecord = z.output<typeof realtimeMessageSchema>;
/** A frame the server sends on the chat socket (`/v1/realtime`). */
export type RealtimeServerFrame = z.output<typeof realtimeServerMessage>;
/** A frame a client may send on the chat socket. */
export type RealtimeClientFrame = z.input<typeof realtimeClientMessage>;
/** A frame the server sends on the signaling socket (`/v1/rtc`). */
export type SignalingServerFrame = z.output<typeof serverMessage>;
/** A frame a client may send on the signaling socket. */
export type SignalingClientFrame = z.input<typeof clientMessage>;
/** The signaling socket's close codes (`/v1/rtc`), by name. */
export type SignalingCloseCodes = typeof CLOSE;
