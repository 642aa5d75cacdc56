import * as z from 'zod';
import { environmentSchema } from '../environments.js';
import { timestampSchema } from '../shared/schemas.js';
import { EVENT_TYPES } from '../webhooks/catalogue.js';

/** A catalogue type; an unknown one is refused with the list, which the CLI shows as it is. */
const triggerableEvent = z.lazy(() =>
  z
    .enum(EVENT_TYPES)
    .meta({ description: 'A type of the event catalogue (`GET /v1/webhook-events`).', example: 'message.created' }),
);

export const triggerEventBody = z.lazy(() =>
  z.strictObject({ event: triggerableEvent }).meta({ id: 'TriggerEventRequest' }),
);

const emittedEvents = z.lazy(() =>
  z.array(z.enum(EVENT_TYPES)).meta({
    description:
      'The catalogue events the trigger emitted, in order: those of the objects it created on the way, and the one ' +
      'asked for (last, but for `conversation.created`, followed by its members’ `member.added`, and ' +
      '`participant.joined`, by `participant.left`). Each reaches webhooks and realtime sockets as any event does.',
    example: ['conversation.created', 'member.added', 'member.added', 'message.created'],
  }),
);

/** What a trigger created or acted on; only the kinds its event involves are present. */
export const triggeredObjectsSchema = z.lazy(() =>
  z
    .object({
      conversation: z.object({ id: z.string(), name: z.string(), members: z.array(z.string()) }).optional(),
      message: z.object({ id: z.string(), conversationId: z.string(), senderId: z.string() }).optional(),
      reaction: z.object({ messageId: z.string(), userId: z.string(), emoji: z.string() }).optional(),
      member: z.object({ conversationId: z.string(), userId: z.string() }).optional(),
      room: z.object({ id: z.string(), name: z.string() }).optional(),
      participant: z
        .object({ roomId: z.string(), identity: z.string() })
        .optional()
        .meta({ description: 'A signaling participant that joined the room and left it.' }),
      liveStream: z
        .object({
          id: z.string(),
          title: z.string(),
          status: z.string(),
          roomId: z.string(),
          conversationId: z.string(),
        })
        .optional(),
      liveStreamParticipant: z
        .object({ liveStreamId: z.string(), identity: z.string(), role: z.enum(['HOST', 'VIEWER']) })
        .optional()
        .meta({ description: 'A host or viewer given a credential to the live stream.' }),
    })
    .meta({ id: 'TriggeredObjects', description: 'The ids of what the trigger created or acted on.' }),
);

export const triggeredEventSchema = z.lazy(() =>
  z
    .object({
      event: z.enum(EVENT_TYPES),
      environment: environmentSchema,
      triggeredAt: timestampSchema,
      objects: triggeredObjectsSchema,
      events: emittedEvents,
    })
    .meta({ id: 'TriggeredEvent' }),
);

export const triggerSchema = z.lazy(() =>
  z
    .object({
      event: z.enum(EVENT_TYPES),
      description: z.string().meta({ description: 'What the trigger does, step by step.' }),
      events: emittedEvents,
    })
    .meta({ id: 'Trigger' }),
);

export type TriggeredObjects = z.infer<typeof triggeredObjectsSchema>;
