import * as z from 'zod';
import { environmentSchema } from '../environments.js';
import { timestampSchema } from '../shared/schemas.js';

const removedCount = (description: string) => z.int().min(0).meta({ description });

export const environmentResetSchema = z.lazy(() =>
  z
    .object({
      environment: environmentSchema,
      resetAt: timestampSchema,
      removed: z
        .object({
          rooms: removedCount('Rooms (their participants were disconnected).'),
          conversations: removedCount('Chat conversations.'),
          conversationMembers: removedCount('Memberships of end users in those conversations.'),
          messages: removedCount('Messages, replies and deleted messages’ tombstones.'),
          reactions: removedCount('Reactions to those messages.'),
          readStates: removedCount('Read positions of conversation members.'),
          attachments: removedCount('Attachments, with their stored files.'),
          liveStreams: removedCount('Live streams (with their rooms and conversations, counted above).'),
          liveStreamParticipants: removedCount('Hosts and viewers recorded in those live streams.'),
          connections: removedCount('Records of signaling and realtime connections.'),
          webhookDeliveries: removedCount('Webhook deliveries, pending or finished, to the environment’s endpoints.'),
          webhookAttempts: removedCount('The HTTP attempts of those deliveries.'),
          telemetryEvents: removedCount('Client telemetry events.'),
          metrics: removedCount('Per-minute metric records.'),
          errors: removedCount('Records of failed runtime requests.'),
        })
        .meta({ description: 'How many of each were removed.' }),
    })
    .meta({ id: 'EnvironmentReset' }),
);
