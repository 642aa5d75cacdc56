import { defineRoute } from '../../http/route.js';
import { listOf } from '../../shared/schemas.js';
import { actingUserId, chatCaller } from '../caller.js';
import { presentReadReceipt, presentReadState } from '../presenter.js';
import { actAsQuery, markReadBody, readReceiptSchema, readStateSchema } from '../schemas.js';

const tag = 'Chat';

export const readRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/chat/messages/{messageId}/read',
    operationId: 'markRead',
    summary: 'Mark read up to a message',
    description: 'The read mark only moves forward: marking an older message changes nothing.',
    tag,
    auth: 'key-or-chat',
    body: markReadBody,
    response: readStateSchema,
    errors: { SERVICE_MESSAGE_NOT_FOUND: 'No such message that the caller can see.' },
    handler: async ({ app, auth, params, body }) => {
      const caller = chatCaller(auth, body.userId, 'userId');
      const { message } = await app.services.messages.access(caller, params.messageId);
      return presentReadState(await app.services.engagement.markRead(message, actingUserId(caller, 'userId')));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/chat/conversations/{room}/read-state',
    operationId: 'getReadState',
    summary: 'Get your read state',
    description: 'The acting user’s last read message and unread count (top-level messages by others, not deleted).',
    tag,
    auth: 'key-or-chat',
    query: actAsQuery,
    response: readStateSchema,
    errors: { SERVICE_CONVERSATION_NOT_FOUND: 'No such conversation that the caller can see.' },
    handler: async ({ app, auth, params, query }) => {
      const caller = chatCaller(auth, query.userId, 'userId');
      const access = await app.services.conversations.access(caller, params.room);
      return presentReadState(await app.services.engagement.readState(access, actingUserId(caller, 'userId')));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/chat/conversations/{room}/read-receipts',
    operationId: 'listReadReceipts',
    summary: 'List read receipts',
    description: 'How far each member has read.',
    tag,
    auth: 'key-or-chat',
    response: listOf(readReceiptSchema),
    errors: { SERVICE_CONVERSATION_NOT_FOUND: 'No such conversation that the caller can see.' },
    handler: async ({ app, auth, params }) => {
      const access = await app.services.conversations.access(chatCaller(auth, undefined, 'userId'), params.room);
      return { data: (await app.services.engagement.receipts(access)).map(presentReadReceipt) };
    },
  }),
];
