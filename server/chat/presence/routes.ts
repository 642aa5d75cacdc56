import { defineRoute } from '../../http/route.js';
import { listOf } from '../../shared/schemas.js';
import { chatCaller } from '../caller.js';
import { presenceSchema, typingSchema } from './schemas.js';

const tag = 'Chat';
const notFound = { SERVICE_CONVERSATION_NOT_FOUND: 'No such conversation that the caller can see.' };

export const liveRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/chat/conversations/{room}/presence',
    operationId: 'getPresence',
    summary: 'Who is online',
    description: 'Each member, and whether they are connected to the realtime socket now.',
    tag,
    auth: 'key-or-chat',
    response: listOf(presenceSchema),
    errors: notFound,
    handler: async ({ app, auth, params }) => {
      const { conversation } = await app.services.conversations.access(
        chatCaller(auth, undefined, 'userId'),
        params.room,
      );
      return { data: await app.services.realtime.presence(conversation.id, auth.scope) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/chat/conversations/{room}/typing',
    operationId: 'getTyping',
    summary: 'Who is typing',
    description: 'Set by clients on the realtime socket (`typing.start`); expires 5 s after the last renewal.',
    tag,
    auth: 'key-or-chat',
    response: listOf(typingSchema),
    errors: notFound,
    handler: async ({ app, auth, params }) => {
      const { conversation } = await app.services.conversations.access(
        chatCaller(auth, undefined, 'userId'),
        params.room,
      );
      return { data: app.services.realtime.typing(conversation.id) };
    },
  }),
];
