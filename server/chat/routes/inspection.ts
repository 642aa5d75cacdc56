import { z } from 'zod';
import { toIso, toIsoOrNull } from '../../clock.js';
import { environmentSchema } from '../../environments.js';
import { defineRoute } from '../../http/route.js';
import { cursorSchema, limitSchema } from '../../shared/pagination.js';
import { listOf, pageOf, timestampSchema } from '../../shared/schemas.js';
import { presenceSchema } from './live.js';

const tag = 'Chat inspection';

export const overviewSchema = z
  .object({
    environment: environmentSchema,
    conversations: z.number().int(),
    members: z.number().int().meta({ description: 'Distinct end users in conversations.' }),
    messages: z.number().int(),
    connections: z.number().int().meta({ description: 'Realtime connections now.' }),
    onlineUsers: z.number().int(),
  })
  .meta({ id: 'ChatOverview' });

export const inspectedConversationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    memberCount: z.number().int(),
    messageCount: z.number().int(),
    lastMessageAt: timestampSchema.nullable(),
    createdAt: timestampSchema,
  })
  .meta({ id: 'InspectedConversation', description: 'Metadata only: the dashboard never sees message content.' });

export const connectionSchema = z
  .object({ id: z.string(), userId: z.string(), connectedAt: timestampSchema })
  .meta({ id: 'ChatConnection' });

/** The dashboard's view of chat: counts and metadata, never message content. */
export const chatInspectionRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/chat/overview',
    operationId: 'getChatOverview',
    summary: 'Chat overview',
    tag,
    auth: 'project-environment',
    capability: 'chat:read',
    response: overviewSchema,
    handler: ({ app, auth }) => {
      const scope = auth.scope;
      const connections = app.services.realtime.connections(scope);
      return {
        environment: scope.environment,
        ...app.services.conversations.stats(scope),
        messages: app.services.messages.countInScope(scope),
        connections: connections.length,
        onlineUsers: new Set(connections.map((c) => c.userId)).size,
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/chat/conversations',
    operationId: 'inspectConversations',
    summary: 'Conversations (dashboard)',
    description: 'Newest first, with member and message counts. No message content.',
    tag,
    auth: 'project-environment',
    capability: 'chat:read',
    query: z.strictObject({ limit: limitSchema, cursor: cursorSchema }),
    response: pageOf(inspectedConversationSchema),
    handler: ({ app, auth, query }) => {
      const scope = auth.scope;
      const page = app.services.conversations.list({ kind: 'server', scope, userId: undefined }, query);
      const ids = page.rows.map((c) => c.id);
      const members = app.services.conversations.memberCounts(ids);
      const activity = app.services.messages.activityOf(ids);
      return {
        data: page.rows.map((c) => ({
          id: c.id,
          name: c.name,
          memberCount: members.get(c.id) ?? 0,
          messageCount: activity.get(c.id)?.count ?? 0,
          lastMessageAt: toIsoOrNull(activity.get(c.id)?.lastAt ?? null),
          createdAt: toIso(c.createdAt),
        })),
        nextCursor: page.nextCursor,
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/chat/connections',
    operationId: 'inspectChatConnections',
    summary: 'Realtime connections (dashboard)',
    description: 'Clients connected to /v1/realtime in the environment now.',
    tag,
    auth: 'project-environment',
    capability: 'chat:read',
    response: listOf(connectionSchema),
    handler: ({ app, auth }) => ({
      data: app.services.realtime
        .connections(auth.scope)
        .map((c) => ({ id: c.id, userId: c.userId, connectedAt: toIso(c.connectedAt) })),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/chat/conversations/{conversationId}/presence',
    operationId: 'inspectPresence',
    summary: 'Presence in a conversation (dashboard)',
    tag,
    auth: 'project-environment',
    capability: 'chat:read',
    response: listOf(presenceSchema),
    errors: { SERVICE_CONVERSATION_NOT_FOUND: 'No such conversation in the environment.' },
    handler: ({ app, auth, params }) => {
      const scope = auth.scope;
      const { conversation } = app.services.conversations.access(
        { kind: 'server', scope, userId: undefined },
        params.conversationId,
      );
      return { data: app.services.realtime.presence(conversation.id, scope) };
    },
  }),
];
