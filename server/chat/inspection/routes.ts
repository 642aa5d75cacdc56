import { defineRoute } from '../../http/route.js';
import { pageQuery } from '../../shared/pagination.js';
import { listOf, pageOf } from '../../shared/schemas.js';
import { presenceSchema } from '../presence/schemas.js';
import { presentChatConnection, presentChatOverview, presentInspectedConversation } from './presenter.js';
import { connectionSchema, inspectedConversationSchema, overviewSchema } from './schemas.js';

const tag = 'Chat inspection';

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
    handler: async ({ app, auth: { scope } }) =>
      presentChatOverview(
        scope.environment,
        {
          ...(await app.services.conversations.stats(scope)),
          messages: await app.services.messages.countInScope(scope),
        },
        app.services.realtime.connections(scope),
      ),
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
    query: pageQuery,
    response: pageOf(inspectedConversationSchema),
    handler: async ({ app, auth, query }) => {
      const scope = auth.scope;
      const page = await app.services.conversations.list({ kind: 'server', scope, userId: undefined }, query);
      const ids = page.rows.map((c) => c.id);
      const members = await app.services.conversations.memberCounts(ids);
      const activity = await app.services.messages.activityOf(ids);
      return {
        data: page.rows.map((c) => presentInspectedConversation(c, members.get(c.id) ?? 0, activity.get(c.id))),
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
      data: app.services.realtime.connections(auth.scope).map(presentChatConnection),
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
    handler: async ({ app, auth, params }) => {
      const scope = auth.scope;
      const { conversation } = await app.services.conversations.access(
        { kind: 'server', scope, userId: undefined },
        params.conversationId,
      );
      return { data: await app.services.realtime.presence(conversation.id, scope) };
    },
  }),
];
