import * as z from 'zod';

/**
 * The public event catalogue: every event type the server emits on the bus (`catalogue` events) and
 * webhooks deliver, with the shape of its `data` and an example. The OpenAPI document, the
 * `GET /v1/webhook-events` route, subscription validation and the test-event route all read this map.
 * Data objects are open (`looseObject`): an emitter may add fields, never drop documented ones.
 */

const id = (prefix: string, example: string) => z.string().meta({ description: `\`${prefix}_\` id`, example });
const timestamp = z.lazy(() => z.string().meta({ description: 'ISO 8601 UTC timestamp with milliseconds.' }));

/** A message as the catalogue's events carry it (realtime events add to it: server/chat/realtime/protocol.ts). */
export const catalogueMessage = z.lazy(() =>
  z.looseObject({
    id: id('msg', 'msg_01JD3K5V8Q3N4M2X6Y7Z8A9B0C'),
    roomId: id('conv', 'conv_01JD3K5V8Q3N4M2X6Y7Z8A9B0D').meta({ description: 'The conversation (`conv_` id).' }),
    senderId: z.string(),
    text: z.string().nullable().meta({ description: 'The message text; null in `message.deleted`.' }),
  }),
);
const exampleMessage = {
  id: 'msg_01JD3K5V8Q3N4M2X6Y7Z8A9B0C',
  roomId: 'conv_01JD3K5V8Q3N4M2X6Y7Z8A9B0D',
  senderId: 'alice',
  text: 'Hello, world',
};

export const catalogueReaction = z.lazy(() =>
  z.looseObject({
    messageId: z.string(),
    roomId: z.string().meta({ description: 'The conversation (`conv_` id).' }),
    userId: z.string(),
    emoji: z.string(),
  }),
);
const exampleReaction = {
  messageId: 'msg_01JD3K5V8Q3N4M2X6Y7Z8A9B0C',
  roomId: 'conv_01JD3K5V8Q3N4M2X6Y7Z8A9B0D',
  userId: 'bob',
  emoji: '👍',
};

export const catalogueMember = z.lazy(() =>
  z.looseObject({
    roomId: z.string().meta({ description: 'The conversation (`conv_` id).' }),
    userId: z.string(),
    role: z.enum(['MEMBER', 'MODERATOR', 'ADMIN']),
  }),
);
const exampleMember = { roomId: 'conv_01JD3K5V8Q3N4M2X6Y7Z8A9B0D', userId: 'carol', role: 'MEMBER' as const };

export const catalogueConversation = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    name: z.string().nullable(),
    createdAt: timestamp,
  }),
);

const room = z.lazy(() => z.looseObject({ id: z.string(), name: z.string(), createdAt: timestamp }));
const exampleRoom = { id: 'room_01JD3K5V8Q3N4M2X6Y7Z8A9B0E', name: 'standup', createdAt: '2026-01-01T09:00:00.000Z' };

const participant = z.lazy(() =>
  z.looseObject({
    identity: z.string(),
    joinedAt: timestamp,
    leftAt: timestamp.nullable(),
  }),
);

const liveStream = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    title: z.string(),
    status: z.string(),
    roomId: z.string(),
    conversationId: z.string(),
  }),
);
const exampleStream = (status: string) => ({
  id: 'ls_01JD3K5V8Q3N4M2X6Y7Z8A9B0F',
  title: 'Launch day',
  status,
  roomId: 'room_01JD3K5V8Q3N4M2X6Y7Z8A9B0E',
  conversationId: 'conv_01JD3K5V8Q3N4M2X6Y7Z8A9B0D',
});

const streamJoin = z.lazy(() => z.looseObject({ liveStream: z.looseObject({ id: z.string() }), identity: z.string() }));

export interface CatalogueEntry {
  description: string;
  data: z.ZodType<Record<string, unknown>>;
  example: Record<string, unknown>;
}

const entry = <S extends z.ZodType<Record<string, unknown>>>(
  description: string,
  data: () => S,
  example: z.input<S>,
): CatalogueEntry => ({ description, data: z.lazy(data), example: example as Record<string, unknown> });

export const EVENT_CATALOGUE = {
  'message.created': entry(
    'A message was sent in a conversation. Includes the message text.',
    () => z.looseObject({ message: catalogueMessage }),
    { message: exampleMessage },
  ),
  'message.updated': entry('A message was edited.', () => z.looseObject({ message: catalogueMessage }), {
    message: { ...exampleMessage, text: 'Hello, everyone' },
  }),
  'message.deleted': entry('A message was deleted.', () => z.looseObject({ message: catalogueMessage }), {
    message: exampleMessage,
  }),
  'reaction.added': entry('A user reacted to a message.', () => z.looseObject({ reaction: catalogueReaction }), {
    reaction: exampleReaction,
  }),
  'reaction.removed': entry('A user took a reaction back.', () => z.looseObject({ reaction: catalogueReaction }), {
    reaction: exampleReaction,
  }),
  'conversation.created': entry(
    'A conversation was created.',
    () => z.looseObject({ conversation: catalogueConversation }),
    {
      conversation: { id: 'conv_01JD3K5V8Q3N4M2X6Y7Z8A9B0D', name: 'general', createdAt: '2026-01-01T09:00:00.000Z' },
    },
  ),
  'member.added': entry('A user was added to a conversation.', () => z.looseObject({ member: catalogueMember }), {
    member: exampleMember,
  }),
  'member.removed': entry(
    'A user left or was removed from a conversation.',
    () => z.looseObject({ member: catalogueMember }),
    {
      member: exampleMember,
    },
  ),
  'room.created': entry('A room was created.', () => z.looseObject({ room }), { room: exampleRoom }),
  'room.deleted': entry('A room was deleted.', () => z.looseObject({ room }), { room: exampleRoom }),
  'participant.joined': entry(
    'A participant joined a room.',
    () => z.looseObject({ room: z.looseObject({ id: z.string(), name: z.string() }), participant }),
    {
      room: { id: exampleRoom.id, name: exampleRoom.name },
      participant: { identity: 'dave', joinedAt: '2026-01-01T09:01:00.000Z', leftAt: null },
    },
  ),
  'participant.left': entry(
    'A participant left a room.',
    () => z.looseObject({ room: z.looseObject({ id: z.string(), name: z.string() }), participant }),
    {
      room: { id: exampleRoom.id, name: exampleRoom.name },
      participant: { identity: 'dave', joinedAt: '2026-01-01T09:01:00.000Z', leftAt: '2026-01-01T09:31:00.000Z' },
    },
  ),
  'live_stream.started': entry('A live stream started.', () => z.looseObject({ liveStream }), {
    liveStream: exampleStream('LIVE'),
  }),
  'live_stream.ended': entry('A live stream ended.', () => z.looseObject({ liveStream }), {
    liveStream: exampleStream('ENDED'),
  }),
  'live_stream.host_joined': entry('A host or co-host joined a live stream.', () => streamJoin, {
    liveStream: { id: 'ls_01JD3K5V8Q3N4M2X6Y7Z8A9B0F' },
    identity: 'erin',
  }),
  'live_stream.viewer_joined': entry('A viewer joined a live stream.', () => streamJoin, {
    liveStream: { id: 'ls_01JD3K5V8Q3N4M2X6Y7Z8A9B0F' },
    identity: 'frank',
  }),
} satisfies Record<string, CatalogueEntry>;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as [EventType, ...EventType[]];

export const isEventType = (type: string): type is EventType => Object.hasOwn(EVENT_CATALOGUE, type);

/** An event type of the catalogue, as request bodies take it. */
export const eventTypeSchema = z.lazy(() =>
  z
    .enum(EVENT_TYPES, { error: 'unknown event type; GET /v1/webhook-events lists the catalogue' })
    .meta({ description: 'A type of the event catalogue (`GET /v1/webhook-events`).', example: 'message.created' }),
);
