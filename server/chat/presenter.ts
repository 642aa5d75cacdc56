import type * as z from 'zod';
import { toIso, toIsoOrNull } from '../clock.js';
import { presentAttachmentSummary } from './attachments/presenter.js';
import type { ConversationMemberRow, ConversationRow } from './conversations/service.js';
import type { MessageView } from './messages/service.js';
import type {
  conversationMemberSchema,
  conversationSchema,
  messageSchema,
  readReceiptSchema,
  readStateSchema,
} from './schemas.js';

export const presentConversation = (c: ConversationRow, memberCount: number): z.input<typeof conversationSchema> => ({
  id: c.id,
  name: c.name,
  environment: c.environment,
  metadata: c.metadata,
  createdBy: c.createdBy,
  memberCount,
  createdAt: toIso(c.createdAt),
  updatedAt: toIso(c.updatedAt),
});

export const presentConversationMember = (m: ConversationMemberRow): z.input<typeof conversationMemberSchema> => ({
  userId: m.userId,
  role: m.role,
  joinedAt: toIso(m.joinedAt),
});

export const presentMessage = (m: MessageView): z.input<typeof messageSchema> => ({
  id: m.id,
  conversationId: m.conversationId,
  senderId: m.senderId,
  text: m.deletedAt === null ? m.text : null,
  parentId: m.parentId,
  replyCount: m.replyCount,
  reactionCounts: m.reactionCounts,
  ownReactions: m.ownReactions,
  attachments: m.attachments.map(presentAttachmentSummary),
  deleted: m.deletedAt !== null,
  createdAt: toIso(m.createdAt),
  editedAt: toIsoOrNull(m.editedAt),
  deletedAt: toIsoOrNull(m.deletedAt),
});

export const presentReadState = (r: {
  conversationId: string;
  userId: string;
  lastReadMessageId: string | null;
  readAt: number | null;
  unreadCount: number;
}): z.input<typeof readStateSchema> => ({ ...r, readAt: toIsoOrNull(r.readAt) });

export const presentReadReceipt = (r: {
  userId: string;
  lastReadMessageId: string;
  readAt: number;
}): z.input<typeof readReceiptSchema> => ({
  userId: r.userId,
  lastReadMessageId: r.lastReadMessageId,
  readAt: toIso(r.readAt),
});
