import { and, eq } from 'drizzle-orm';
import { reactions, readStates } from '../../../db/schema/chat.js';
import type { Infrastructure } from '../../context.js';
import { notFound } from '../../errors.js';
import type { ConversationAccess } from '../conversations/service.js';
import type { MessageRow, MessageService } from '../messages/service.js';

/** Reactions and read state: what members do with messages besides writing them. */
export function createEngagementService({ store, clock, events }: Infrastructure, messages: MessageService) {
  const { db } = store;
  const reactionData = (message: MessageRow, userId: string, emoji: string) => ({
    reaction: { messageId: message.id, roomId: message.conversationId, userId, emoji },
  });

  const readStateOf = (conversationId: string, userId: string) =>
    and(eq(readStates.conversationId, conversationId), eq(readStates.userId, userId));

  async function readState(conversationId: string, userId: string) {
    const [row] = await db.select().from(readStates).where(readStateOf(conversationId, userId)).limit(1);
    return {
      conversationId,
      userId,
      lastReadMessageId: row?.lastReadMessageId ?? null,
      readAt: row?.readAt ?? null,
      unreadCount: await messages.countUnread(conversationId, userId, row?.lastReadMessageId ?? null),
    };
  }

  return {
    /** Adding the same reaction twice is harmless: the second is a no-op. */
    async react(message: MessageRow, userId: string, emoji: string): Promise<void> {
      const added = await store.transaction((tx) =>
        tx
          .insert(reactions)
          .values({ messageId: message.id, userId, emoji, createdAt: clock.now() })
          .onConflictDoNothing()
          .returning({ messageId: reactions.messageId }),
      );
      if (added.length > 0) messages.publish(message, 'reaction.added', reactionData(message, userId, emoji));
    },

    async unreact(message: MessageRow, userId: string, emoji: string): Promise<void> {
      const removed = await store.transaction((tx) =>
        tx
          .delete(reactions)
          .where(and(eq(reactions.messageId, message.id), eq(reactions.userId, userId), eq(reactions.emoji, emoji)))
          .returning({ messageId: reactions.messageId }),
      );
      if (removed.length === 0)
        throw notFound('SERVICE_REACTION_NOT_FOUND', `${userId} has no ${emoji} reaction on this message.`);
      messages.publish(message, 'reaction.removed', reactionData(message, userId, emoji));
    },

    /** Read up to this message; the mark only moves forward (reading an older message changes nothing). */
    async markRead(message: MessageRow, userId: string) {
      const now = clock.now();
      // The mark is read and moved in one transaction, so that two marks at once cannot move it backwards.
      const moved = await store.transaction(async (tx) => {
        const [current] = await tx
          .select({ lastReadMessageId: readStates.lastReadMessageId })
          .from(readStates)
          .where(readStateOf(message.conversationId, userId))
          .limit(1);
        if (current && message.id <= current.lastReadMessageId) return false;
        await tx
          .insert(readStates)
          .values({ conversationId: message.conversationId, userId, lastReadMessageId: message.id, readAt: now })
          .onConflictDoUpdate({
            target: [readStates.conversationId, readStates.userId],
            set: { lastReadMessageId: message.id, readAt: now },
          });
        return true;
      });
      if (moved) {
        // Read receipts go to connected clients only: they are not part of the webhook catalogue.
        events.emit('chat', {
          projectId: message.projectId,
          environment: message.environment,
          conversationId: message.conversationId,
          type: 'read.updated',
          data: () => ({
            read: {
              roomId: message.conversationId,
              userId,
              lastReadMessageId: message.id,
              readAt: new Date(now).toISOString(),
            },
          }),
        });
      }
      return readState(message.conversationId, userId);
    },

    readState(access: ConversationAccess, userId: string) {
      return readState(access.conversation.id, userId);
    },

    receipts(access: ConversationAccess) {
      return db
        .select()
        .from(readStates)
        .where(eq(readStates.conversationId, access.conversation.id))
        .orderBy(readStates.userId);
    },
  };
}

export type EngagementService = ReturnType<typeof createEngagementService>;
