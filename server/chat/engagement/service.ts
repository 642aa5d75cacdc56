import { and, eq } from 'drizzle-orm';
import { reactions, readStates } from '../../../db/schema/chat.js';
import type { Infrastructure } from '../../context.js';
import { notFound } from '../../errors.js';
import type { ConversationAccess } from '../conversations/service.js';
import type { MessageRow, MessageService } from '../messages/service.js';

/** Reactions and read state: what members do with messages besides writing them. */
export function createEngagementService({ db, clock, events }: Infrastructure, messages: MessageService) {
  const reactionData = (message: MessageRow, userId: string, emoji: string) => ({
    reaction: { messageId: message.id, roomId: message.conversationId, userId, emoji },
  });

  function readState(conversationId: string, userId: string) {
    const row = db
      .select()
      .from(readStates)
      .where(and(eq(readStates.conversationId, conversationId), eq(readStates.userId, userId)))
      .get();
    return {
      conversationId,
      userId,
      lastReadMessageId: row?.lastReadMessageId ?? null,
      readAt: row?.readAt ?? null,
      unreadCount: messages.countUnread(conversationId, userId, row?.lastReadMessageId ?? null),
    };
  }

  return {
    /** Adding the same reaction twice is harmless: the second is a no-op. */
    react(message: MessageRow, userId: string, emoji: string): void {
      const added = db
        .insert(reactions)
        .values({ messageId: message.id, userId, emoji, createdAt: clock.now() })
        .onConflictDoNothing()
        .run();
      if (added.changes > 0) messages.publish(message, 'reaction.added', reactionData(message, userId, emoji));
    },

    unreact(message: MessageRow, userId: string, emoji: string): void {
      const removed = db
        .delete(reactions)
        .where(and(eq(reactions.messageId, message.id), eq(reactions.userId, userId), eq(reactions.emoji, emoji)))
        .run();
      if (removed.changes === 0)
        throw notFound('SERVICE_REACTION_NOT_FOUND', `${userId} has no ${emoji} reaction on this message.`);
      messages.publish(message, 'reaction.removed', reactionData(message, userId, emoji));
    },

    /** Read up to this message; the mark only moves forward (reading an older message changes nothing). */
    markRead(message: MessageRow, userId: string) {
      const now = clock.now();
      const current = readState(message.conversationId, userId);
      if (current.lastReadMessageId === null || message.id > current.lastReadMessageId) {
        db.insert(readStates)
          .values({ conversationId: message.conversationId, userId, lastReadMessageId: message.id, readAt: now })
          .onConflictDoUpdate({
            target: [readStates.conversationId, readStates.userId],
            set: { lastReadMessageId: message.id, readAt: now },
          })
          .run();
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
        .orderBy(readStates.userId)
        .all();
    },
  };
}

export type EngagementService = ReturnType<typeof createEngagementService>;
