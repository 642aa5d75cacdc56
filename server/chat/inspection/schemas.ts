import * as z from 'zod';
import { environmentSchema } from '../../environments.js';
import { timestampSchema } from '../../shared/schemas.js';

export const overviewSchema = z.lazy(() =>
  z
    .object({
      environment: environmentSchema,
      conversations: z.number().int(),
      members: z.number().int().meta({ description: 'Distinct end users in conversations.' }),
      messages: z.number().int(),
      connections: z.number().int().meta({ description: 'Realtime connections now.' }),
      onlineUsers: z.number().int(),
    })
    .meta({ id: 'ChatOverview' }),
);

export const inspectedConversationSchema = z.lazy(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      memberCount: z.number().int(),
      messageCount: z.number().int(),
      lastMessageAt: timestampSchema.nullable(),
      createdAt: timestampSchema,
    })
    .meta({ id: 'InspectedConversation', description: 'Metadata only: the dashboard never sees message content.' }),
);

export const connectionSchema = z.lazy(() =>
  z.object({ id: z.string(), userId: z.string(), connectedAt: timestampSchema }).meta({ id: 'ChatConnection' }),
);
