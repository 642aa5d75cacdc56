import { and, count, countDistinct, eq, inArray, sql } from 'drizzle-orm';
import { prepareOnFirstUse } from '../../../db/prepare-on-first-use.js';
import { type ConversationRole, conversationMembers, conversations } from '../../../db/schema/chat.js';
import { type EnvironmentScope, inScope, inScopePrepared, isInScope, scopeValues } from '../../../db/scope.js';
import type { Queries } from '../../../db/store.js';
import type { Infrastructure } from '../../context.js';
import { conflict, notFound, ServiceError } from '../../errors.js';
import { newestFirstPage } from '../../shared/scoped-page.js';
import type { ChatCaller } from '../caller.js';
import { type ChatChangeOptions, emitChatChange } from '../chat-change.js';
import { atLeast, CONVERSATION_RIGHTS, type ConversationRight, effectiveRole } from '../rights.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationMemberRow = typeof conversationMembers.$inferSelect;

/** A caller's standing in one conversation: a server has every right; a user has a role. */
export interface ConversationAccess {
  conversation: ConversationRow;
  caller: ChatCaller;
  role: ConversationRole | 'SERVER';
}

export interface NewConversation {
  name: string;
  metadata?: Record<string, unknown>;
  members?: { userId: string; role: ConversationRole }[];
  createdBy?: string;
}

export const conversationNotFound = (id: string) =>
  notFound('SERVICE_CONVERSATION_NOT_FOUND', `No conversation ${id} that you can see in this environment.`);

const RIGHT_WORDS: Record<ConversationRight, string> = {
  deleteOthersMessages: "delete other members' messages",
  removeMembers: 'remove members',
  addMembers: 'add members',
  changeRoles: 'change member roles',
  removeModerators: 'remove moderators or admins',
  updateConversation: 'update the conversation',
};

export function requireRight(access: ConversationAccess, right: ConversationRight): void {
  if (access.role === 'SERVER' || atLeast(access.role, CONVERSATION_RIGHTS[right])) return;
  throw new ServiceError(
    'SERVICE_PERMISSION_DENIED',
    `Your role ${access.role} in this conversation cannot ${RIGHT_WORDS[right]} (needs ${CONVERSATION_RIGHTS[right]}).`,
  );
}

/** Conversation rows kept in memory (a few hundred bytes each). */
const MAX_CACHED_CONVERSATIONS = 10_000;

export function createConversationService({ store, clock, ids, events, cluster }: Infrastructure) {
  const { db } = store;
  async function memberCount(conversationId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(conversationMembers)
      .where(eq(conversationMembers.conversationId, conversationId));
    return row?.n ?? 0;
  }

  // Every message POST and realtime event runs these: prepared once.
  const conversationInScope = prepareOnFirstUse(() =>
    db
      .select()
      .from(conversations)
      .where(inScopePrepared(conversations, eq(conversations.id, sql.placeholder('conversationId'))))
      .prepare(),
  );
  const memberRow = prepareOnFirstUse(() =>
    db
      .select()
      .from(conversationMembers)
      .where(
        and(
          eq(conversationMembers.conversationId, sql.placeholder('conversationId')),
          eq(conversationMembers.userId, sql.placeholder('userId')),
        ),
      )
      .prepare(),
  );
  const memberIs = (conversationId: string, userId: string) =>
    and(eq(conversationMembers.conversationId, conversationId), eq(conversationMembers.userId, userId));
  /**
   * The member's row. The prepared statement reads what is committed; inside a transaction (adding or removing a
   * member) the transaction is asked instead, so that its check and its write see the same rows.
   */
  async function findMember(conversationId: string, userId: string): Promise<ConversationMemberRow | undefined> {
    if (store.inTransaction()) {
      const [row] = await db.select().from(conversationMembers).where(memberIs(conversationId, userId)).limit(1);
      return row;
    }
    const [row] = await memberRow.execute({ conversationId, userId });
    return row;
  }

  /**
   * Conversation rows by id: every message POST and realtime event reads one, and they change only here (create,
   * update) or leave with their project, so the copy stays exact. Bounded: the least recently read leave first.
   */
  const cachedRows = new Map<string, ConversationRow>();
  /**
   * Another node's changes arrive on the bus (`conversation.changed`, a project deleted, an environment reset): while
   * it is lost they would not, so the cache is not used, and it starts empty when the bus is back.
   */
  const trusted = () => cluster.busStatus() !== 'down';
  /**
   * Counts the changes to cached rows (an update, a project or environment deleted): a row read from the database
   * while one happened may be the old one, and is not kept.
   */
  let changes = 0;
  function remember(row: ConversationRow): ConversationRow {
    cachedRows.delete(row.id);
    cachedRows.set(row.id, row);
    if (cachedRows.size > MAX_CACHED_CONVERSATIONS) cachedRows.delete(cachedRows.keys().next().value as string);
    return row;
  }
  /** The conversation if it exists in the scope: what `conversationInScope` answers, from memory when it can. */
  async function conversationIn(scope: EnvironmentScope, conversationId: string): Promise<ConversationRow | undefined> {
    const cached = trusted() ? cachedRows.get(conversationId) : undefined;
    if (cached) return isInScope(cached, scope) ? remember(cached) : undefined;
    const changesBefore = changes;
    const [row] = await conversationInScope.execute({ ...scope, conversationId });
    if (row && changes === changesBefore && trusted()) remember(row);
    return row;
  }
  const forget = (stale: (row: ConversationRow) => boolean) => {
    changes++;
    for (const [id, row] of cachedRows) if (stale(row)) cachedRows.delete(id);
  };
  events.on('conversation.changed', ({ conversationId }) => forget((row) => row.id === conversationId));
  cluster.onBusChange(() => forget(() => true));
  events.on('project.deleted', ({ projectId }) => forget((row) => row.projectId === projectId));
  events.on('environment.reset', (scope) => forget((row) => isInScope(row, scope)));
  const conversationsOfUser = prepareOnFirstUse(() =>
    db
      .select({ id: conversations.id })
      .from(conversationMembers)
      .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
      .where(inScopePrepared(conversations, eq(conversationMembers.userId, sql.placeholder('userId'))))
      .prepare(),
  );
  const membersOf = prepareOnFirstUse(() =>
    db
      .select({ userId: conversationMembers.userId })
      .from(conversationMembers)
      .where(eq(conversationMembers.conversationId, sql.placeholder('conversationId')))
      .prepare(),
  );

  const catalogueConversation = (c: ConversationRow) => ({
    id: c.id,
    name: c.name,
    createdAt: new Date(c.createdAt).toISOString(),
  });
  const emitChange = (c: ConversationRow, type: string, data: Record<string, unknown>, options?: ChatChangeOptions) =>
    emitChatChange(events, c, c.id, type, data, options);
  const emitMember = (
    type: 'member.added' | 'member.removed',
    c: ConversationRow,
    userId: string,
    role: ConversationRole,
  ) => emitChange(c, type, { member: { roomId: c.id, userId, role } });

  /**
   * The conversation's writes, inside the caller's transaction (a live stream creates its chat with
   * itself); `announce` after the commit: the row is cached and its events emitted only once it exists.
   */
  async function createIn(
    tx: Queries,
    caller: ChatCaller,
    input: NewConversation,
  ): Promise<{ conversation: ConversationRow; announce(): void }> {
    const now = clock.now();
    const creator = caller.kind === 'user' ? caller.userId : (input.createdBy ?? null);
    const conversation: ConversationRow = {
      id: ids.next('conv'),
      ...scopeValues(caller.scope),
      name: input.name,
      metadata: input.metadata ?? null,
      createdBy: creator,
      createdAt: now,
      updatedAt: now,
    };
    const members = new Map((input.members ?? []).map((m) => [m.userId, m.role]));
    if (creator) members.set(creator, 'ADMIN');
    const [taken] = await tx
      .select({ id: conversations.id })
      .from(conversations)
      .where(inScope(conversations, caller.scope, eq(conversations.name, input.name)))
      .limit(1);
    if (taken)
      throw conflict(
        'SERVICE_CONVERSATION_EXISTS',
        `A conversation named "${input.name}" already exists in this environment.`,
      );
    await tx.insert(conversations).values(conversation);
    for (const [userId, role] of members) {
      await tx.insert(conversationMembers).values({ conversationId: conversation.id, userId, role, joinedAt: now });
    }
    return {
      conversation,
      announce() {
        remember(conversation);
        emitChange(
          conversation,
          'conversation.created',
          { conversation: catalogueConversation(conversation) },
          { members: [...members.keys()] },
        );
        for (const [userId, role] of members) emitMember('member.added', conversation, userId, role);
      },
    };
  }

  /**
   * What `addMember` does, inside the caller's transaction (a live stream records its participant with it);
   * `announce` after the commit, so that nobody hears of a member who was rolled back.
   */
  async function addMemberIn(
    tx: Queries,
    access: ConversationAccess,
    input: { userId: string; role: ConversationRole },
  ): Promise<{ member: ConversationMemberRow; announce(): void }> {
    requireRight(access, 'addMembers');
    const { conversation } = access;
    const existing = await findMember(conversation.id, input.userId);
    if (existing) {
      if (existing.role === input.role) return { member: existing, announce() {} };
      requireRight(access, 'changeRoles');
      await tx.update(conversationMembers).set({ role: input.role }).where(memberIs(conversation.id, input.userId));
      return { member: { ...existing, role: input.role }, announce() {} };
    }
    const member = { conversationId: conversation.id, userId: input.userId, role: input.role, joinedAt: clock.now() };
    await tx.insert(conversationMembers).values(member);
    return { member, announce: () => emitMember('member.added', conversation, member.userId, member.role) };
  }

  /** What `removeMember` does, inside the caller's transaction (a live stream records a host's leaving with it). */
  /** With `ifMember`, someone who already left is nothing to remove, rather than 404. */
  async function removeMemberIn(
    tx: Queries,
    access: ConversationAccess,
    userId: string,
    { ifMember = false } = {},
  ): Promise<{ announce(): void }> {
    const { conversation } = access;
    const target = await findMember(conversation.id, userId);
    if (!target && ifMember) return { announce: () => undefined };
    if (!target) throw notFound('SERVICE_MEMBER_NOT_FOUND', `${userId} is not a member of this conversation.`);
    const leaving = access.caller.kind === 'user' && access.caller.userId === userId;
    if (!leaving) requireRight(access, target.role === 'MEMBER' ? 'removeMembers' : 'removeModerators');
    await tx.delete(conversationMembers).where(memberIs(conversation.id, userId));
    return { announce: () => emitMember('member.removed', conversation, userId, target.role) };
  }

  /** Members of each conversation: one query for a whole page. */
  async function memberCounts(conversationIds: string[]): Promise<Map<string, number>> {
    const counts = new Map(conversationIds.map((id) => [id, 0]));
    if (conversationIds.length === 0) return counts;
    const rows = await db
      .select({ conversationId: conversationMembers.conversationId, n: count() })
      .from(conversationMembers)
      .where(inArray(conversationMembers.conversationId, conversationIds))
      .groupBy(conversationMembers.conversationId);
    for (const row of rows) counts.set(row.conversationId, row.n);
    return counts;
  }

  return {
    memberCount,
    memberCounts,

    /**
     * The conversation and the caller's role in it. Another environment's conversation, or one a
     * chat-token user does not belong to, is not found (404), exactly like a missing one; `notFound`
     * names what the caller asked for (a message, an attachment) when that is not the conversation.
     */
    async access(
      caller: ChatCaller,
      conversationId: string,
      notFound: () => ServiceError = () => conversationNotFound(conversationId),
    ): Promise<ConversationAccess> {
      const conversation = await conversationIn(caller.scope, conversationId);
      if (!conversation) throw notFound();
      if (caller.kind === 'server') return { conversation, caller, role: 'SERVER' };
      const member = await findMember(conversationId, caller.userId);
      if (!member) throw notFound();
      return { conversation, caller, role: effectiveRole(member.role, caller.tokenScope) };
    },

    createIn,

    async create(caller: ChatCaller, input: NewConversation): Promise<ConversationRow> {
      const created = await store.transaction((tx) => createIn(tx, caller, input));
      created.announce();
      return created.conversation;
    },

    /** Newest first; a chat-token user (or `userId` given by a server) sees only their conversations. */
    list(caller: ChatCaller, query: { limit: number; cursor?: string }) {
      const memberOf = caller.userId;
      return newestFirstPage(
        db,
        conversations,
        caller.scope,
        query,
        memberOf !== undefined
          ? inArray(
              conversations.id,
              db
                .select({ id: conversationMembers.conversationId })
                .from(conversationMembers)
                .where(eq(conversationMembers.userId, memberOf)),
            )
          : undefined,
      );
    },

    async update(
      access: ConversationAccess,
      patch: { name?: string; metadata?: Record<string, unknown> | null },
    ): Promise<ConversationRow> {
      requireRight(access, 'updateConversation');
      const { conversation } = access;
      const updated = await store.transaction(async (tx) => {
        if (patch.name !== undefined && patch.name !== conversation.name) {
          const [taken] = await tx
            .select({ id: conversations.id })
            .from(conversations)
            .where(inScope(conversations, access.caller.scope, eq(conversations.name, patch.name)))
            .limit(1);
          if (taken)
            throw conflict(
              'SERVICE_CONVERSATION_EXISTS',
              `A conversation named "${patch.name}" already exists in this environment.`,
            );
        }
        const [row] = await tx
          .update(conversations)
          .set({
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
            updatedAt: clock.now(),
          })
          .where(eq(conversations.id, conversation.id))
          .returning();
        return row;
      });
      // Committed: from now on readers get the new row, here and on the other nodes (and one read before the commit
      // is not kept).
      events.emit('conversation.changed', { conversationId: updated.id });
      return remember(updated);
    },

    listMembers(access: ConversationAccess): Promise<ConversationMemberRow[]> {
      return db
        .select()
        .from(conversationMembers)
        .where(eq(conversationMembers.conversationId, access.conversation.id))
        .orderBy(conversationMembers.joinedAt, conversationMembers.userId);
    },

    addMemberIn,

    /** Adds a member, or changes the role of an existing one (admins only). */
    async addMember(
      access: ConversationAccess,
      input: { userId: string; role: ConversationRole },
    ): Promise<ConversationMemberRow> {
      const added = await store.transaction((tx) => addMemberIn(tx, access, input));
      added.announce();
      return added.member;
    },

    removeMemberIn,

    /** Anyone may leave; moderators remove members, admins remove anyone. */
    async removeMember(access: ConversationAccess, userId: string): Promise<void> {
      const removed = await store.transaction((tx) => removeMemberIn(tx, access, userId));
      removed.announce();
    },

    /** The user ids of a conversation's members (for realtime fan-out). */
    /** Whether the user is a member of the conversation (one indexed row, whatever its size). */
    async isMember(conversationId: string, userId: string): Promise<boolean> {
      return (await findMember(conversationId, userId)) !== undefined;
    },

    async memberIds(conversationId: string): Promise<string[]> {
      return (await membersOf.execute({ conversationId })).map((m) => m.userId);
    },

    /** Every conversation a user belongs to in a scope (what a realtime connection receives). */
    async conversationIdsOf(scope: EnvironmentScope, userId: string): Promise<string[]> {
      return (await conversationsOfUser.execute({ ...scope, userId })).map((c) => c.id);
    },

    /** For the dashboard's inspection routes: counts only, never content. */
    async stats(scope: EnvironmentScope) {
      const [total] = await db.select({ n: count() }).from(conversations).where(inScope(conversations, scope));
      const [users] = await db
        .select({ n: countDistinct(conversationMembers.userId) })
        .from(conversationMembers)
        .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
        .where(inScope(conversations, scope));
      return { conversations: total?.n ?? 0, members: users?.n ?? 0 };
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
