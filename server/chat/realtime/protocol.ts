import * as z from 'zod';
import { CLOSE_ENVIRONMENT_RESET } from '../../environment-reset/close.js';
import { CLOSE_TRY_AGAIN_LATER } from '../../security/socket-limits.js';
import {
  catalogueConversation,
  catalogueMember,
  catalogueMessage,
  catalogueReaction,
} from '../../webhooks/catalogue.js';

export const REALTIME_CLOSE = {
  goingAway: 1001,
  /** The server, or the token's environment, is at its WebSocket limit: connect again later. */
  tryAgainLater: CLOSE_TRY_AGAIN_LATER,
  /** The token's environment was reset: its conversations are gone; connecting again finds it empty. */
  environmentReset: CLOSE_ENVIRONMENT_RESET,
  badRequest: 4400,
  unauthenticated: 4401,
} as const;

/**
 * Why a socket closes with 1013 while the bus between the nodes (Redis) is lost, and a new one is refused: events of
 * the other nodes would not reach it.
 */
export const REALTIME_DEGRADED_REASON = 'realtime degraded: the bus between the servers is lost; reconnect later';

const id = z.lazy(() => z.string().min(1).max(64));

/** What a client may send on `/v1/realtime`. */
export const realtimeClientMessage = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('typing.start'), conversationId: id }),
    z.strictObject({ type: z.literal('typing.stop'), conversationId: id }),
    z.strictObject({ type: z.literal('read'), messageId: id }),
    /** Follow every presence change of a conversation, whatever its size (answered with `presence.snapshot`). */
    z.strictObject({ type: z.literal('presence.watch'), conversationId: id }),
    z.strictObject({ type: z.literal('presence.unwatch'), conversationId: id }),
    z.strictObject({ type: z.literal('ping') }),
  ]),
);
export type RealtimeClientMessage = z.infer<typeof realtimeClientMessage>;

/**
 * One event the server pushes, `{type, conversationId, data}`. The frames' schemas document the protocol and type the
 * SDK's `ChatClient` events (type-only); the tests parse every frame they receive with them (test/support).
 */
const event = <const T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.strictObject({ type: z.literal(type), conversationId: z.string(), data });

// The catalogue's objects are open (webhook receivers must accept new fields); the realtime frames are the catalogue's
// fields and exactly those, so that a test that parses every frame notices a field the protocol does not document.

/** A message as realtime events carry it: the catalogue's, with what a client shows and catches up with. */
export const realtimeMessageSchema = z.lazy(() =>
  z.strictObject({
    ...catalogueMessage.unwrap().shape,
    parentId: z.string().nullable(),
    deleted: z.boolean(),
    createdAt: z.string(),
    editedAt: z.string().nullable(),
    /** `messages.list(conversationId, {after: cursor})` lists what came after this message. */
    cursor: z.string(),
  }),
);
const messageData = z.lazy(() => z.strictObject({ message: realtimeMessageSchema }));
const reactionData = z.lazy(() => z.strictObject({ reaction: z.strictObject(catalogueReaction.unwrap().shape) }));
const typingData = z.lazy(() => z.strictObject({ userId: z.string() }));
const memberData = z.lazy(() => z.strictObject({ member: z.strictObject(catalogueMember.unwrap().shape) }));

export const realtimeEvent = z.lazy(() =>
  z.discriminatedUnion('type', [
    event('message.created', messageData),
    event('message.updated', messageData),
    event('message.deleted', messageData),
    event('reaction.added', reactionData),
    event('reaction.removed', reactionData),
    event(
      'read.updated',
      z.strictObject({
        read: z.strictObject({
          roomId: z.string(),
          userId: z.string(),
          lastReadMessageId: z.string(),
          readAt: z.string(),
        }),
      }),
    ),
    event('typing.started', typingData),
    event('typing.stopped', typingData),
    /** About the other members: a user never hears of their own presence. */
    event('presence.changed', z.strictObject({ userId: z.string(), online: z.boolean(), at: z.string() })),
    /** The answer to `presence.watch`: who is online now; `presence.changed` events follow. */
    event('presence.snapshot', z.strictObject({ online: z.array(z.string()) })),
    event('member.added', memberData),
    /** A removed member gets theirs, then nothing more from the conversation. */
    event('member.removed', memberData),
    event(
      'conversation.created',
      z.strictObject({ conversation: z.strictObject(catalogueConversation.unwrap().shape) }),
    ),
  ]),
);
export type RealtimeEvent = z.input<typeof realtimeEvent>;

/** Everything the server sends on `/v1/realtime`. */
export const realtimeServerMessage = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('connected'),
      connectionId: z.string(),
      userId: z.string(),
      conversationIds: z.array(z.string()),
      /** The message stream's position at connection: `after` this, a catch-up finds what this socket missed. */
      cursor: z.string(),
    }),
    ...realtimeEvent.unwrap().options,
    z.strictObject({ type: z.literal('pong') }),
    /** A refused action, with the REST error code; the connection stays open. */
    z.strictObject({ type: z.literal('error'), code: z.string(), message: z.string() }),
  ]),
);
export type RealtimeServerMessage = z.input<typeof realtimeServerMessage>;
