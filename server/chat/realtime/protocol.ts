import { z } from 'zod';

export const REALTIME_CLOSE = {
  goingAway: 1001,
  badRequest: 4400,
  unauthenticated: 4401,
} as const;

const id = z.string().min(1).max(64);

/** What a client may send on `/v1/realtime`. */
export const realtimeClientMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('typing.start'), conversationId: id }),
  z.strictObject({ type: z.literal('typing.stop'), conversationId: id }),
  z.strictObject({ type: z.literal('read'), messageId: id }),
  z.strictObject({ type: z.literal('ping') }),
]);
export type RealtimeClientMessage = z.infer<typeof realtimeClientMessage>;

/** Event types the server pushes, each `{type, conversationId, data}`. */
export const REALTIME_EVENT_TYPES = [
  'message.created',
  'message.updated',
  'message.deleted',
  'reaction.added',
  'reaction.removed',
  'read.updated',
  'typing.started',
  'typing.stopped',
  'presence.changed',
  'member.added',
  'member.removed',
  'conversation.created',
] as const;

export type RealtimeServerMessage =
  | {
      type: 'connected';
      connectionId: string;
      userId: string;
      conversationIds: string[];
      /** The message stream's position at connection: `after` this, a catch-up finds what this socket missed. */
      cursor: string;
    }
  | { type: (typeof REALTIME_EVENT_TYPES)[number] | string; conversationId: string; data: Record<string, unknown> }
  | { type: 'pong' }
  | { type: 'error'; code: string; message: string };
