import { toIso } from '../../clock.js';
import { defineRoute } from '../../http/route.js';
import { chatTokenSchema, createChatTokenBody } from '../schemas.js';

export const chatTokenRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/chat/tokens',
    operationId: 'createChatToken',
    summary: 'Mint a chat token',
    description:
      'For one end user, in the API key’s environment (`env` claim). Every chat action with the token is that user’s ' +
      '(`senderId` claim): no request field can change it. Scope MEMBER. Default lifetime 24 hours.',
    tag: 'Chat',
    auth: 'key',
    body: createChatTokenBody,
    status: 201,
    response: chatTokenSchema,
    handler: async ({ app, auth, body }) => {
      const minted = await app.services.chatTokens.mint(
        { ...auth.scope, userId: body.userId, scope: 'MEMBER' },
        body.ttlSeconds,
      );
      return {
        token: minted.token,
        expiresAt: toIso(minted.expiresAt),
        userId: body.userId,
        environment: auth.scope.environment,
      };
    },
  }),
];
