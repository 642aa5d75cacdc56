import { defineRoute } from '../../http/route.js';
import { actingUserId, chatCaller } from '../caller.js';
import { presentMessage } from '../presenter.js';
import {
  actAsQuery,
  editMessageBody,
  messageListQuery,
  messagePageSchema,
  messageSchema,
  reactionBody,
  sendMessageBody,
  threadQuery,
  threadSchema,
} from '../schemas.js';

const tag = 'Chat';
const conversationNotFound = {
  SERVICE_CONVERSATION_NOT_FOUND: 'No such conversation that the caller can see.',
};
const messageNotFound = { SERVICE_MESSAGE_NOT_FOUND: 'No such message that the caller can see.' };

export const messageRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/chat/conversations/{room}/messages',
    operationId: 'sendMessage',
    summary: 'Send a message',
    description:
      `Text of 1 to 4,000 characters; \`parentId\` replies in a thread (one level deep). With a chat token the sender is ` +
      'the token’s user and `senderId` is refused; with an API key `senderId` is required. `attachmentIds` (up to ' +
      '10) must be completed attachments of this conversation not yet on a message (the sender’s own, with a chat ' +
      'token); deleting the message deletes them. The message reaches ' +
      'connected members before any webhook for it is queued.',
    tag,
    auth: 'key-or-chat',
    body: sendMessageBody,
    status: 201,
    response: messageSchema,
    errors: conversationNotFound,
    handler: async ({ app, auth, params, body }) => {
      const caller = chatCaller(auth, body.senderId, 'senderId');
      const access = await app.services.conversations.access(caller, params.room);
      return presentMessage(await app.services.messages.send(access, actingUserId(caller, 'senderId'), body));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/chat/conversations/{room}/messages',
    operationId: 'listMessages',
    summary: 'List messages',
    description:
      'Top-level messages in order of creation, paged with opaque cursors: no cursor gives the newest `limit`, ' +
      '`before=<prevCursor>` older ones, `after=<nextCursor>` newer ones. There is no offset.',
    tag,
    auth: 'key-or-chat',
    query: messageListQuery,
    response: messagePageSchema,
    errors: conversationNotFound,
    handler: async ({ app, auth, params, query }) => {
      const caller = chatCaller(auth, query.userId, 'userId');
      const access = await app.services.conversations.access(caller, params.room);
      const page = await app.services.messages.list(access, query);
      return {
        data: (await app.services.messages.decorate(page.rows, caller.userId)).map(presentMessage),
        nextCursor: page.nextCursor,
        prevCursor: page.prevCursor,
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/chat/messages/{messageId}',
    operationId: 'getMessage',
    summary: 'Get a message',
    description:
      'One message with its reaction counts, attachments and reply count. A deleted message answers as a tombstone (`deleted: true`, no text).',
    tag,
    auth: 'key-or-chat',
    query: actAsQuery,
    response: messageSchema,
    errors: messageNotFound,
    handler: async ({ app, auth, params, query }) => {
      const caller = chatCaller(auth, query.userId, 'userId');
      const { message } = await app.services.messages.access(caller, params.messageId);
      return presentMessage((await app.services.messages.decorate([message], caller.userId))[0]);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/chat/messages/{messageId}/thread',
    operationId: 'getThread',
    summary: 'List a thread',
    description: 'The thread’s first message and its replies, oldest first, paged with `after`.',
    tag,
    auth: 'key-or-chat',
    query: threadQuery,
    response: threadSchema,
    errors: messageNotFound,
    handler: async ({ app, auth, params, query }) => {
      const caller = chatCaller(auth, query.userId, 'userId');
      let { message } = await app.services.messages.access(caller, params.messageId);
      if (message.parentId !== null) message = (await app.services.messages.access(caller, message.parentId)).message;
      const page = await app.services.messages.thread(message, query);
      const [parent, ...replies] = await app.services.messages.decorate([message, ...page.rows], caller.userId);
      return { parent: presentMessage(parent), data: replies.map(presentMessage), nextCursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/chat/messages/{messageId}',
    operationId: 'editMessage',
    summary: 'Edit a message',
    description: 'Only the sender edits their text (a server may edit any message). Deleted messages cannot be edited.',
    tag,
    auth: 'key-or-chat',
    body: editMessageBody,
    response: messageSchema,
    errors: {
      ...messageNotFound,
      SERVICE_PERMISSION_DENIED: 'Not the sender.',
      SERVICE_MESSAGE_DELETED: 'The message was deleted.',
    },
    handler: async ({ app, auth, params, body }) => {
      const caller = chatCaller(auth, body.userId, 'userId');
      const edited = await app.services.messages.edit(caller, params.messageId, body.text);
      return presentMessage((await app.services.messages.decorate([edited], caller.userId))[0]);
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/chat/messages/{messageId}',
    operationId: 'deleteMessage',
    summary: 'Delete a message',
    description:
      'Senders delete their own; MODERATORs and ADMINs anyone’s. The message stays as a tombstone (`deleted: true`, ' +
      'no text) so that its thread keeps its shape.',
    tag,
    auth: 'key-or-chat',
    query: actAsQuery,
    status: 204,
    errors: {
      ...messageNotFound,
      SERVICE_PERMISSION_DENIED: 'Not the sender, and not a MODERATOR or ADMIN of the conversation.',
    },
    handler: async ({ app, auth, params, query }) => {
      await app.services.messages.delete(chatCaller(auth, query.userId, 'userId'), params.messageId);
      return undefined;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/chat/messages/{messageId}/reactions',
    operationId: 'addReaction',
    summary: 'React to a message',
    description: 'Adding the same reaction twice is harmless. Answers the message with its reaction counts.',
    tag,
    auth: 'key-or-chat',
    body: reactionBody,
    status: 201,
    response: messageSchema,
    errors: messageNotFound,
    handler: async ({ app, auth, params, body }) => {
      const caller = chatCaller(auth, body.userId, 'userId');
      const { message } = await app.services.messages.access(caller, params.messageId);
      const userId = actingUserId(caller, 'userId');
      await app.services.engagement.react(message, userId, body.emoji);
      return presentMessage((await app.services.messages.decorate([message], userId))[0]);
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/chat/messages/{messageId}/reactions/{emoji}',
    operationId: 'removeReaction',
    summary: 'Remove a reaction',
    description: 'The acting user’s reaction with this emoji (URL-encode it).',
    tag,
    auth: 'key-or-chat',
    query: actAsQuery,
    status: 204,
    errors: { SERVICE_REACTION_NOT_FOUND: 'No such message, or no such reaction of the user.' },
    handler: async ({ app, auth, params, query }) => {
      const caller = chatCaller(auth, query.userId, 'userId');
      const { message } = await app.services.messages.access(caller, params.messageId);
      await app.services.engagement.unreact(message, actingUserId(caller, 'userId'), params.emoji);
      return undefined;
    },
  }),
];
