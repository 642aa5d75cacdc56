import * as z from 'zod';
import { CONVERSATION_ROLES } from '../../db/schema/chat.js';
import { environmentSchema } from '../environments.js';
import { cursorSchema, limitSchema } from '../shared/pagination.js';
import { timestampSchema } from '../shared/schemas.js';
import { MAX_ATTACHMENTS_PER_MESSAGE } from './attachments/limits.js';
import { attachmentSummarySchema } from './attachments/schemas.js';
import { CHAT_TOKEN_MAX_TTL_SECONDS } from './tokens/service.js';

export const MAX_MESSAGE_LENGTH = 4000;
export const MAX_MEMBERS_PER_REQUEST = 100;

const userIdSchema = z.lazy(() =>
  z.string().trim().min(1).max(128).meta({ description: 'Your application’s id for the end user.' }),
);
const metadataSchema = z.lazy(() =>
  z
    .record(z.string(), z.unknown())
    .refine((value) => JSON.stringify(value).length <= 4096, 'must be at most 4 KB of JSON'),
);
export const conversationRoleSchema = z.lazy(() => z.enum(CONVERSATION_ROLES).meta({ id: 'ConversationRole' }));

export const createChatTokenBody = z.lazy(() =>
  z
    .strictObject({
      userId: userIdSchema,
      ttlSeconds: z.number().int().min(60).max(CHAT_TOKEN_MAX_TTL_SECONDS).optional().meta({
        description: 'Lifetime, 60 s to 30 days (default 24 hours).',
      }),
    })
    .meta({ id: 'CreateChatTokenRequest' }),
);

export const chatTokenSchema = z.lazy(() =>
  z
    .object({ token: z.string(), expiresAt: timestampSchema, userId: z.string(), environment: environmentSchema })
    .meta({ id: 'ChatToken' }),
);

const memberInput = z.lazy(() =>
  z.strictObject({ userId: userIdSchema, role: conversationRoleSchema.optional().default('MEMBER') }),
);

export const createConversationBody = z.lazy(() =>
  z
    .strictObject({
      name: z.string().trim().min(1).max(128).meta({ description: 'Unique within the environment.' }),
      metadata: metadataSchema.optional(),
      members: z.array(memberInput).max(MAX_MEMBERS_PER_REQUEST).optional().meta({
        description: 'Initial members. With a chat token the caller is added as ADMIN.',
      }),
      createdBy: userIdSchema
        .optional()
        .meta({ description: 'API key only: the end user creating it (becomes ADMIN).' }),
    })
    .meta({ id: 'CreateConversationRequest' }),
);

export const updateConversationBody = z.lazy(() =>
  z
    .strictObject({
      name: z.string().trim().min(1).max(128).optional(),
      metadata: metadataSchema.nullable().optional(),
    })
    .meta({ id: 'UpdateConversationRequest' }),
);

export const addMemberBody = z.lazy(() =>
  z
    .strictObject({ userId: userIdSchema, role: conversationRoleSchema.optional().default('MEMBER') })
    .meta({ id: 'AddConversationMemberRequest' }),
);

export const sendMessageBody = z.lazy(() =>
  z
    .strictObject({
      text: z
        .string()
        .min(1, 'must not be empty')
        .max(MAX_MESSAGE_LENGTH, `must be at most ${MAX_MESSAGE_LENGTH} characters`),
      parentId: z.string().max(64).optional().meta({ description: 'Reply in the thread of this message.' }),
      attachmentIds: z
        .array(z.string().min(1).max(64))
        .max(MAX_ATTACHMENTS_PER_MESSAGE, `must list at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments`)
        .optional()
        .meta({
          description:
            'Completed attachments of this conversation, each on one message only; with a chat token, the sender’s own.',
        }),
      senderId: userIdSchema.optional().meta({ description: 'API key only: who sends. Refused with a chat token.' }),
    })
    .meta({ id: 'SendMessageRequest' }),
);

export const editMessageBody = z.lazy(() =>
  z
    .strictObject({
      text: z.string().min(1).max(MAX_MESSAGE_LENGTH),
      userId: userIdSchema.optional().meta({ description: 'API key only: who edits (default: the server itself).' }),
    })
    .meta({ id: 'EditMessageRequest' }),
);

export const actAsQuery = z.lazy(() =>
  z.strictObject({
    userId: userIdSchema.optional().meta({ description: 'API key only: the user to act for.' }),
  }),
);

export const reactionBody = z.lazy(() =>
  z
    .strictObject({
      emoji: z.string().trim().min(1).max(32).meta({ example: '👍' }),
      userId: userIdSchema.optional().meta({ description: 'API key only: who reacts.' }),
    })
    .meta({ id: 'ReactionRequest' }),
);

export const markReadBody = z.lazy(() =>
  z
    .strictObject({ userId: userIdSchema.optional().meta({ description: 'API key only: whose read state.' }) })
    .meta({ id: 'MarkReadRequest' }),
);

export const conversationListQuery = z.lazy(() =>
  z.strictObject({
    limit: limitSchema(),
    cursor: cursorSchema(),
    userId: userIdSchema.optional().meta({ description: 'API key only: conversations this user belongs to.' }),
  }),
);

export const messageListQuery = z.lazy(() =>
  z.strictObject({
    limit: limitSchema(),
    before: cursorSchema().meta({ description: 'Messages older than this cursor (a `prevCursor`).' }),
    after: cursorSchema().meta({ description: 'Messages newer than this cursor (a `nextCursor`).' }),
    userId: userIdSchema.optional().meta({ description: 'API key only: whose own reactions to mark.' }),
  }),
);

export const conversationSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'conv_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      name: z.string(),
      environment: environmentSchema,
      metadata: z.record(z.string(), z.unknown()).nullable(),
      createdBy: z.string().nullable(),
      memberCount: z.number().int(),
      createdAt: timestampSchema,
      updatedAt: timestampSchema,
    })
    .meta({ id: 'Conversation' }),
);

export const conversationMemberSchema = z.lazy(() =>
  z
    .object({ userId: z.string(), role: conversationRoleSchema, joinedAt: timestampSchema })
    .meta({ id: 'ConversationMember' }),
);

export const messageSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'msg_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      conversationId: z.string(),
      senderId: z.string(),
      text: z.string().nullable().meta({ description: 'Null once deleted.' }),
      parentId: z.string().nullable(),
      replyCount: z.number().int(),
      reactionCounts: z.record(z.string(), z.number().int()),
      ownReactions: z.array(z.string()).meta({ description: 'The acting user’s own reactions.' }),
      attachments: z.array(attachmentSummarySchema).meta({ description: 'Empty once deleted.' }),
      deleted: z.boolean(),
      createdAt: timestampSchema,
      editedAt: timestampSchema.nullable(),
      deletedAt: timestampSchema.nullable(),
    })
    .meta({ id: 'Message' }),
);

export const messagePageSchema = z.lazy(() =>
  z
    .object({
      data: z.array(messageSchema),
      nextCursor: z
        .string()
        .nullable()
        .meta({ description: 'Pass as `after` for newer messages; null when none exist yet.' }),
      prevCursor: z
        .string()
        .nullable()
        .meta({ description: 'Pass as `before` for older messages; null at the beginning.' }),
    })
    .meta({ id: 'MessagePage' }),
);

export const readStateSchema = z.lazy(() =>
  z
    .object({
      conversationId: z.string(),
      userId: z.string(),
      lastReadMessageId: z.string().nullable(),
      readAt: timestampSchema.nullable(),
      unreadCount: z.number().int(),
    })
    .meta({ id: 'ReadState' }),
);

export const readReceiptSchema = z.lazy(() =>
  z.object({ userId: z.string(), lastReadMessageId: z.string(), readAt: timestampSchema }).meta({ id: 'ReadReceipt' }),
);

export const threadQuery = z.lazy(() =>
  z.strictObject({
    limit: limitSchema(),
    after: cursorSchema(),
    userId: z.string().min(1).max(128).optional().meta({ description: 'API key only: whose own reactions to mark.' }),
  }),
);
export const threadSchema = z.lazy(() =>
  z
    .object({ parent: messageSchema, data: z.array(messageSchema), nextCursor: z.string().nullable() })
    .meta({ id: 'Thread' }),
);
