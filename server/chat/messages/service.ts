import { and, asc, count, desc, eq, gt, inArray, isNull, lt, max, ne, sql } from 'drizzle-orm';
import { conversations as conversationTable, messages, reactions } from '../../../db/schema/chat.js';
import { inScope, scopeValues } from '../../../db/scope.js';
import { toIso, toIsoOrNull } from '../../clock.js';
import type { Infrastructure } from '../../context.js';
import { notFound, ServiceError, validationFailed } from '../../errors.js';
import { decodeCursor, encodeCursor } from '../../shared/pagination.js';
import type { AttachmentRow, AttachmentService } from '../attachments/service.js';
import type { ChatCaller } from '../caller.js';
import { emitChatChange } from '../chat-change.js';
import { type ConversationAccess, type ConversationService, requireRight } from '../conversations/service.js';

export type MessageRow = typeof messages.$inferSelect;

/** A message with what the reader sees around it: replies, reaction counts, their own reactions. */
export interface MessageView extends MessageRow {
  replyCount: number;
  reactionCounts: Record<string, number>;
  ownReactions: string[];
  /** The message's attachments, in the order they were sent. */
  attachments: AttachmentRow[];
}

/** A message just sent, as readers see it: no replies or reactions yet. Field by field, for the reason in `send`. */
const newMessageView = (m: MessageRow, attachments: AttachmentRow[]): MessageView => ({
  id: m.id,
  projectId: m.projectId,
  environment: m.environment,
  conversationId: m.conversationId,
  senderId: m.senderId,
  text: m.text,
  parentId: m.parentId,
  attachmentIds: m.attachmentIds,
  createdAt: m.createdAt,
  editedAt: m.editedAt,
  deletedAt: m.deletedAt,
  replyCount: 0,
  reactionCounts: {},
  ownReactions: [],
  attachments,
});

export const messageNotFound = (id: string) =>
  notFound('SERVICE_MESSAGE_NOT_FOUND', `No message ${id} that you can see in this environment.`);

export function createMessageService(
  { store, clock, ids, events }: Infrastructure,
  conversations: ConversationService,
  attachments: AttachmentService,
) {
  const { db } = store;
  /** A change about a message, announced to connected members, then to the catalogue (see emitChatChange). */
  const publish = (
    message: MessageRow,
    type: string,
    data: Record<string, unknown>,
    realtimeData?: () => Record<string, unknown>,
  ) => emitChatChange(events, message, message.conversationId, type, data, { realtimeData });

  /**
   * The catalogue gets spec 6.4's shape; connected clients get it too, with the rest of the message and its
   * cursor, for catching up with `after` after a reconnect (built only if someone is connected to hear it).
   */
  function publishMessage(m: MessageRow, type: 'message.created' | 'message.updated' | 'message.deleted'): void {
    const catalogue = catalogueMessage(m);
    publish(m, type, { message: catalogue }, () => ({ message: realtimeMessage(m, catalogue) }));
  }

  /** Field by field, for the reason in `send`. */
  const realtimeMessage = (m: MessageRow, catalogue: ReturnType<typeof catalogueMessage>) => ({
    id: catalogue.id,
    roomId: catalogue.roomId,
    senderId: catalogue.senderId,
    text: catalogue.text,
    parentId: m.parentId,
    deleted: m.deletedAt !== null,
    createdAt: toIso(m.createdAt),
    editedAt: toIsoOrNull(m.editedAt),
    cursor: encodeCursor(m.id),
  });

  /** Spec 6.4's shape, `{id, roomId, senderId, text}`; the text is null once deleted. */
  const catalogueMessage = (m: MessageRow) => ({
    id: m.id,
    roomId: m.conversationId,
    senderId: m.senderId,
    text: m.deletedAt ? null : m.text,
  });

  // Every message POST runs this: prepared once.
  const insertMessage = store.rowInsert(messages);

  /** Replies, reaction counts and the user's own reactions for a page of messages, in three queries. */
  async function decorate(rows: MessageRow[], userId: string | undefined): Promise<MessageView[]> {
    if (rows.length === 0) return [];
    const idList = rows.map((r) => r.id);
    const replyRows = await db
      .select({ parentId: messages.parentId, n: count() })
      .from(messages)
      .where(inArray(messages.parentId, idList))
      .groupBy(messages.parentId);
    const replies = new Map(replyRows.map((r) => [r.parentId, r.n]));
    const counts = new Map<string, Record<string, number>>();
    for (const r of await db
      .select({ messageId: reactions.messageId, emoji: reactions.emoji, n: count() })
      .from(reactions)
      .where(inArray(reactions.messageId, idList))
      .groupBy(reactions.messageId, reactions.emoji)) {
      counts.set(r.messageId, { ...counts.get(r.messageId), [r.emoji]: r.n });
    }
    const own = new Map<string, string[]>();
    if (userId !== undefined) {
      for (const r of await db
        .select({ messageId: reactions.messageId, emoji: reactions.emoji })
        .from(reactions)
        .where(and(inArray(reactions.messageId, idList), eq(reactions.userId, userId)))) {
        own.set(r.messageId, [...(own.get(r.messageId) ?? []), r.emoji]);
      }
    }
    const files = await attachments.summaries(rows[0], [...new Set(rows.flatMap((r) => r.attachmentIds))]);
    return rows.map((r) => ({
      ...r,
      replyCount: replies.get(r.id) ?? 0,
      reactionCounts: counts.get(r.id) ?? {},
      ownReactions: own.get(r.id) ?? [],
      attachments: r.attachmentIds.flatMap((id) => files.get(id) ?? []),
    }));
  }

  /** The message and the caller's access to its conversation; 404 if either is out of reach. */
  async function access(
    caller: ChatCaller,
    messageId: string,
  ): Promise<{ message: MessageRow; conversation: ConversationAccess }> {
    const [message] = await db
      .select()
      .from(messages)
      .where(inScope(messages, caller.scope, eq(messages.id, messageId)))
      .limit(1);
    if (!message) throw messageNotFound(messageId);
    const conversation = await conversations.access(caller, message.conversationId, () => messageNotFound(messageId));
    return { message, conversation };
  }

  return {
    access,
    decorate,

    async send(
      conversation: ConversationAccess,
      senderId: string,
      input: { text: string; parentId?: string; attachmentIds?: string[] },
    ): Promise<MessageView> {
      const { conversation: c } = conversation;
      if (input.parentId !== undefined) {
        const [parent] = await db
          .select()
          .from(messages)
          .where(and(eq(messages.id, input.parentId), eq(messages.conversationId, c.id)))
          .limit(1);
        if (!parent) throw validationFailed(`parentId: no message ${input.parentId} in this conversation.`);
        if (parent.parentId !== null)
          throw validationFailed('parentId: threads are one level deep; reply to the thread’s first message.');
      }
      // Every field written out, no spread: after a spread V8 defines each further field through its runtime, which
      // cost a message POST ≈50,000 instructions here (callgrind). The id is taken just before the transaction, with
      // nothing awaited in between: SQLite runs transactions in the order they are asked for, so ids grow in the
      // order of commits, which is the order of the events.
      const { projectId, environment } = scopeValues(c);
      const message: MessageRow = {
        id: ids.next('msg'),
        projectId,
        environment,
        conversationId: c.id,
        senderId,
        text: input.text,
        parentId: input.parentId ?? null,
        attachmentIds: input.attachmentIds ?? [],
        createdAt: clock.now(),
        editedAt: null,
        deletedAt: null,
      };
      // Without attachments the message is the request's one write: a statement of its own, atomic, with no
      // transaction around it (on PostgreSQL, BEGIN and COMMIT were two of its three round trips).
      let files: AttachmentRow[] = [];
      if (message.attachmentIds.length === 0) await insertMessage(message);
      else
        files = await store.transaction(async (tx) => {
          const claimed = await attachments.claim(tx, conversation, senderId, message.attachmentIds, message.id);
          await insertMessage(message);
          return claimed;
        });
      publishMessage(message, 'message.created');
      // A new message has no replies or reactions yet, and its attachments are the rows just claimed.
      return newMessageView(message, files);
    },

    /** Only the sender edits their text (a server may edit any); a deleted message stays deleted. */
    async edit(caller: ChatCaller, messageId: string, text: string): Promise<MessageRow> {
      const { message } = await access(caller, messageId);
      if (caller.kind === 'user' && caller.userId !== message.senderId) {
        throw new ServiceError('SERVICE_PERMISSION_DENIED', 'Only the sender can edit a message.');
      }
      const deleted = () => new ServiceError('SERVICE_MESSAGE_DELETED', 'A deleted message cannot be edited.');
      if (message.deletedAt !== null) throw deleted();
      // Not deleted meanwhile: checked again by the update itself.
      const [edited] = await store.transaction((tx) =>
        tx
          .update(messages)
          .set({ text, editedAt: clock.now() })
          .where(and(eq(messages.id, messageId), isNull(messages.deletedAt)))
          .returning(),
      );
      if (!edited) throw deleted();
      publishMessage(edited, 'message.updated');
      return edited;
    },

    /**
     * Leaves a tombstone (no text, no attachments) so that replies keep their thread. The
     * attachments are deleted with their files: a deleted message's files must not stay reachable.
     */
    async delete(caller: ChatCaller, messageId: string): Promise<void> {
      const { message, conversation } = await access(caller, messageId);
      if (!(caller.kind === 'user' && caller.userId === message.senderId))
        requireRight(conversation, 'deleteOthersMessages');
      if (message.deletedAt !== null) return;
      const outcome = await store.transaction(async (tx) => {
        // Deleted meanwhile by someone else: nothing more to do (their delete announced it).
        const [deleted] = await tx
          .update(messages)
          .set({ text: '', attachmentIds: [], deletedAt: clock.now() })
          .where(and(eq(messages.id, messageId), isNull(messages.deletedAt)))
          .returning();
        if (!deleted) return undefined;
        return { deleted, removeFiles: await attachments.deleteForMessageIn(tx, message, message.id) };
      });
      if (!outcome) return;
      outcome.removeFiles();
      publishMessage(outcome.deleted, 'message.deleted');
    },

    /**
     * Top-level messages in order of creation. Without a cursor: the newest `limit`. With `before`:
     * the `limit` just older. With `after`: the `limit` just newer. Ids only grow, so a cursor is a
     * fixed point: messages added meanwhile never shift a page (no duplicates, no gaps).
     */
    async list(conversation: ConversationAccess, query: { limit: number; before?: string; after?: string }) {
      if (query.before !== undefined && query.after !== undefined)
        throw validationFailed('Use one of before and after, not both.');
      const conversationId = conversation.conversation.id;
      const topLevel = and(eq(messages.conversationId, conversationId), isNull(messages.parentId));
      const before = decodeCursor(query.before);
      const after = decodeCursor(query.after);
      let rows: MessageRow[];
      if (after !== undefined) {
        rows = await db
          .select()
          .from(messages)
          .where(and(topLevel, gt(messages.id, after)))
          .orderBy(asc(messages.id))
          .limit(query.limit);
      } else {
        rows = (
          await db
            .select()
            .from(messages)
            .where(and(topLevel, before !== undefined ? lt(messages.id, before) : undefined))
            .orderBy(desc(messages.id))
            .limit(query.limit)
        ).reverse();
      }
      const exists = async (condition: ReturnType<typeof gt>) =>
        (await db.select({ id: messages.id }).from(messages).where(and(topLevel, condition)).limit(1)).length > 0;
      const first = rows[0]?.id;
      const last = rows[rows.length - 1]?.id;
      return {
        rows,
        prevCursor: first !== undefined && (await exists(lt(messages.id, first))) ? encodeCursor(first) : null,
        nextCursor: last !== undefined && (await exists(gt(messages.id, last))) ? encodeCursor(last) : null,
      };
    },

    /** The replies to a thread's first message, oldest first, paged with `after`. */
    async thread(parent: MessageRow, query: { limit: number; after?: string }) {
      const after = decodeCursor(query.after);
      const rows = await db
        .select()
        .from(messages)
        .where(and(eq(messages.parentId, parent.id), after !== undefined ? gt(messages.id, after) : undefined))
        .orderBy(asc(messages.id))
        .limit(query.limit + 1);
      const more = rows.length > query.limit;
      const page = more ? rows.slice(0, query.limit) : rows;
      return { rows: page, nextCursor: more ? encodeCursor(page[page.length - 1].id) : null };
    },

    /** Top-level messages newer than `afterId` that `userId` did not send (for unread counts). */
    async countUnread(conversationId: string, userId: string, afterId: string | null): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(messages)
        .where(
          and(
            eq(messages.conversationId, conversationId),
            isNull(messages.parentId),
            isNull(messages.deletedAt),
            ne(messages.senderId, userId),
            afterId !== null ? gt(messages.id, afterId) : sql`1 = 1`,
          ),
        );
      return row?.n ?? 0;
    },

    /**
     * Messages of a project environment, deleted ones included (the dashboard's overview). Counted through
     * the environment's conversations (a message is always in its conversation's scope): the (conversation_id,
     * id) index answers, and the busiest table needs no scope index of its own to write on every message.
     */
    async countInScope(scope: { projectId: string; environment: MessageRow['environment'] }): Promise<number> {
      const scopeConversations = db
        .select({ id: conversationTable.id })
        .from(conversationTable)
        .where(inScope(conversationTable, scope));
      const [row] = await db
        .select({ n: count() })
        .from(messages)
        .where(inArray(messages.conversationId, scopeConversations));
      return row?.n ?? 0;
    },

    /**
     * How many messages each conversation has, and when the last was sent: no content, two queries for a
     * whole page. The counts and the newest ids come from the (conversation_id, id) index alone; only the
     * newest message of each conversation is read for its time.
     */
    async activityOf(conversationIds: string[]): Promise<Map<string, { count: number; lastAt: number | null }>> {
      const activity = new Map(conversationIds.map((id) => [id, { count: 0, lastAt: null as number | null }]));
      if (conversationIds.length === 0) return activity;
      const counted = await db
        .select({ conversationId: messages.conversationId, n: count(), lastId: max(messages.id) })
        .from(messages)
        .where(inArray(messages.conversationId, conversationIds))
        .groupBy(messages.conversationId);
      const newest = counted.flatMap((row) => (row.lastId === null ? [] : [row.lastId]));
      const sentAt = new Map(
        newest.length === 0
          ? []
          : (
              await db
                .select({ id: messages.id, createdAt: messages.createdAt })
                .from(messages)
                .where(inArray(messages.id, newest))
            ).map((row) => [row.id, row.createdAt]),
      );
      for (const row of counted)
        activity.set(row.conversationId, {
          count: row.n,
          lastAt: row.lastId === null ? null : (sentAt.get(row.lastId) ?? null),
        });
      return activity;
    },

    publish,
  };
}

export type MessageService = ReturnType<typeof createMessageService>;
