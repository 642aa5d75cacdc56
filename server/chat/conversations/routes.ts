import { defineRoute } from '../../http/route.js';
import { listOf, pageOf } from '../../shared/schemas.js';
import { chatCaller } from '../caller.js';
import { presentConversation, presentConversationMember } from '../presenter.js';
import {
  addMemberBody,
  conversationListQuery,
  conversationMemberSchema,
  conversationSchema,
  createConversationBody,
  updateConversationBody,
} from '../schemas.js';

const tag = 'Chat';
const notFound = { SERVICE_CONVERSATION_NOT_FOUND: 'No such conversation that the caller can see.' };

export const conversationRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/chat/conversations',
    operationId: 'createConversation',
    summary: 'Create a conversation',
    description:
      'With a chat token the caller becomes its ADMIN. With an API key, `createdBy` names the creating user (ADMIN) ' +
      'and `members` the initial members. Names are unique within the environment.',
    tag,
    auth: 'key-or-chat',
    body: createConversationBody,
    status: 201,
    response: conversationSchema,
    errors: { SERVICE_CONVERSATION_EXISTS: 'A conversation of that name exists in this environment.' },
    handler: async ({ app, auth, body }) => {
      const caller = chatCaller(auth, body.createdBy, 'createdBy');
      const conversation = await app.services.conversations.create(caller, body);
      return presentConversation(conversation, await app.services.conversations.memberCount(conversation.id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/chat/conversations',
    operationId: 'listConversations',
    summary: 'List conversations',
    description:
      'Newest first. A chat token lists the conversations its user belongs to; an API key lists all, or a user’s with `userId`.',
    tag,
    auth: 'key-or-chat',
    query: conversationListQuery,
    response: pageOf(conversationSchema),
    handler: async ({ app, auth, query }) => {
      const page = await app.services.conversations.list(chatCaller(auth, query.userId, 'userId'), query);
      const members = await app.services.conversations.memberCounts(page.rows.map((c) => c.id));
      return {
        data: page.rows.map((c) => presentConversation(c, members.get(c.id) ?? 0)),
        nextCursor: page.nextCursor,
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/chat/conversations/{room}',
    operationId: 'getConversation',
    summary: 'Get a conversation',
    description: 'One conversation with its metadata and member count. With a chat token the caller must be a member.',
    tag,
    auth: 'key-or-chat',
    response: conversationSchema,
    errors: notFound,
    handler: async ({ app, auth, params }) => {
      const { conversation } = await app.services.conversations.access(
        chatCaller(auth, undefined, 'userId'),
        params.room,
      );
      return presentConversation(conversation, await app.services.conversations.memberCount(conversation.id));
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/chat/conversations/{room}',
    operationId: 'updateConversation',
    summary: 'Update a conversation',
    description: 'Name and metadata. Conversation ADMINs (and servers) only.',
    tag,
    auth: 'key-or-chat',
    body: updateConversationBody,
    response: conversationSchema,
    errors: { ...notFound, SERVICE_PERMISSION_DENIED: 'The caller’s conversation role is not ADMIN.' },
    handler: async ({ app, auth, params, body }) => {
      const access = await app.services.conversations.access(chatCaller(auth, undefined, 'userId'), params.room);
      const updated = await app.services.conversations.update(access, body);
      return presentConversation(updated, await app.services.conversations.memberCount(updated.id));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/chat/conversations/{room}/members',
    operationId: 'addConversationMember',
    summary: 'Add a member (or change a role)',
    description: 'Conversation ADMINs (and servers) add members and change roles.',
    tag,
    auth: 'key-or-chat',
    body: addMemberBody,
    status: 201,
    response: conversationMemberSchema,
    errors: { ...notFound, SERVICE_PERMISSION_DENIED: 'The caller’s conversation role is not ADMIN.' },
    handler: async ({ app, auth, params, body }) => {
      const access = await app.services.conversations.access(chatCaller(auth, undefined, 'userId'), params.room);
      return presentConversationMember(await app.services.conversations.addMember(access, body));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/chat/conversations/{room}/members',
    operationId: 'listConversationMembers',
    summary: 'List members',
    description: 'The members of a conversation with their roles. With a chat token the caller must be a member.',
    tag,
    auth: 'key-or-chat',
    response: listOf(conversationMemberSchema),
    errors: notFound,
    handler: async ({ app, auth, params }) => {
      const access = await app.services.conversations.access(chatCaller(auth, undefined, 'userId'), params.room);
      return { data: (await app.services.conversations.listMembers(access)).map(presentConversationMember) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/chat/conversations/{room}/members/{userId}',
    operationId: 'removeConversationMember',
    summary: 'Remove a member, or leave',
    description: 'Anyone may remove themselves. MODERATORs remove MEMBERs; ADMINs remove anyone.',
    tag,
    auth: 'key-or-chat',
    status: 204,
    errors: { ...notFound, SERVICE_PERMISSION_DENIED: 'The caller’s conversation role may not remove this member.' },
    handler: async ({ app, auth, params }) => {
      const access = await app.services.conversations.access(chatCaller(auth, undefined, 'userId'), params.room);
      await app.services.conversations.removeMember(access, params.userId);
      return undefined;
    },
  }),
];
