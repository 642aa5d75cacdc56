import { and, count, countDistinct, eq, inArray, sql } from 'drizzle-orm';
import { type ConversationRole, conversationMembers, conversations } from '../../../db/schema/chat.js';
import { type EnvironmentScope, inScope, inScopePrepared, isInScope, scopeValues } from '../../../db/scope.js';
import type { Executor, Infrastructure } from '../../context.js';
import { conflict, notFound, ServiceError } from '../../errors.js';
import { newestFirstPage } from '../../shared/scoped-page-sync.js';
import type { ChatCaller } from '../caller.js';
import { emitChatChange } from '../chat-change.js';
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

export function createConversationService({ db, clock, ids, events }: Infrastructure) {
  const memberCount = (conversationId: string) =>
    db
      .select({ n: count() })
      .from(conversationMembers)
      .where(eq(conversationMembers.conversationId, conversationId))
      .get()?.n ?? 0;

  // Every message POST and realtime event runs these: prepared once.
  const conversationInScope = db
    .select()
    .from(conversations)
    .where(inScopePrepared(conversations, eq(conversations.id, sql.placeholder('conversationId'))))
    .prepare();
  const memberRow = db
    .select()
    .from(conversationMembers)
    .where(
      and(
        eq(conversationMembers.conversationId, sql.placeholder('conversationId')),
        eq(conversationMembers.userId, sql.placeholder('userId')),
      ),
    )
    .prepare();
  const findMember = (conversationId: string, userId: string) => memberRow.get({ conversationId, userId });

  /**
   * Conversation rows by id: every message POST and realtime event reads one, and they change only here (create,
   * update) or leave with their project, so the copy stays exact. Bounded: the least recently read leave first.
   */
  const cachedRows = new Map<string, ConversationRow>();
  function remember(row: ConversationRow): ConversationRow {
    cachedRows.delete(row.id);
    cachedRows.set(row.id, row);
    if (cachedRows.size > MAX_CACHED_CONVERSATIONS) cachedRows.delete(cachedRows.keys().next().value as string);
    return row;
  }
  /** The conversation if it exists in the scope: what `conversationInScope` answers, from memory when it can. */
  function conversationIn(scope: EnvironmentScope, conversationId: string): ConversationRow | undefined {
    const cached = cachedRows.get(conversationId);
    if (cached) return isInScope(cached, scope) ? remember(cached) : undefined;
    const row = conversationInScope.get({ ...scope, conversationId });
    return row && remember(row);
  }
  events.on('project.deleted', ({ projectId }) => {
    for (const [id, row] of cachedRows) if (row.projectId === projectId) cachedRows.delete(id);
  });
  events.on('environment.reset', (scope) => {
    for (const [id, row] of cachedRows) if (isInScope(row, scope)) cachedRows.delete(id);
  });
  const conversationsOfUser = db
    .select({ id: conversations.id })
    .from(conversationMembers)
    .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
    .where(inScopePrepared(conversations, eq(conversationMembers.userId, sql.placeholder('userId'))))
    .prepare();
  const membersOf = db
    .select({ userId: conversationMembers.userId })
    .from(conversationMembers)
    .where(eq(conversationMembers.conversationId, sql.placeholder('conversationId')))
    .prepare();

  const catalogueConversation = (c: ConversationRow) => ({
    id: c.id,
    name: c.name,
    createdAt: new Date(c.createdAt).toISOString(),
  });
  const emitChange = (c: ConversationRow, type: string, data: Record<string, unknown>) =>
    emitChatChange(events, c, c.id, type, data);
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
  function createIn(
    tx: Executor,
    caller: ChatCaller,
    input: NewConversation,
  ): { conversation: ConversationRow; announce(): void } {
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
    const taken = tx
      .select({ id: conversations.id })
      .from(conversations)
      .where(inScope(conversations, caller.scope, eq(conversations.name, input.name)))
      .get();
    if (taken)
      throw conflict(
        'SERVICE_CONVERSATION_EXISTS',
        `A conversation named "${input.name}" already exists in this environment.`,
      );
    tx.insert(conversations).values(conversation).run();
    for (const [userId, role] of members) {
      tx.insert(conversationMembers).values({ conversationId: conversation.id, userId, role, joinedAt: now }).run();
    }
    return {
      conversation,
      announce() {
        remember(conversation);
        emitChange(conversation, 'conversation.created', { conversation: catalogueConversation(conversation) });
        for (const [userId, role] of members) emitMember('member.added', conversation, userId, role);
      },
    };
  }

  /**
   * What `addMember` does, inside the caller's transaction (a live stream records its participant with it);
   * `announce` after the commit, so that nobody hears of a member who was rolled back.
   */
  function addMemberIn(
    tx: Executor,
    access: ConversationAccess,
    input: { userId: string; role: ConversationRole },
  ): { member: ConversationMemberRow; announce(): void } {
    requireRight(access, 'addMembers');
    const { conversation } = access;
    const existing = findMember(conversation.id, input.userId);
    if (existing) {
      if (existing.role === input.role) return { member: existing, announce() {} };
      requireRight(access, 'changeRoles');
      tx.update(conversationMembers)
        .set({ role: input.role })
        .where(
          and(eq(conversationMembers.conversationId, conversation.id), eq(conversationMembers.userId, input.userId)),
        )
        .run();
      return { member: { ...existing, role: input.role }, announce() {} };
    }
    const member = { conversationId: conversation.id, userId: input.userId, role: input.role, joinedAt: clock.now() };
    tx.insert(conversationMembers).values(member).run();
    return { member, announce: () => emitMember('member.added', conversation, member.userId, member.role) };
  }

  /** What `removeMember` does, inside the caller's transaction (a live stream records a host's leaving with it). */
  /** With `ifMember`, someone who already left is nothing to remove, rather than 404. */
  function removeMemberIn(
    tx: Executor,
    access: ConversationAccess,
    userId: string,
    { ifMember = false } = {},
  ): { announce(): void } {
    const { conversation } = access;
    const target = findMember(conversation.id, userId);
    if (!target && ifMember) return { announce: () => undefined };
    if (!target) throw notFound('SERVICE_MEMBER_NOT_FOUND', `${userId} is not a member of this conversation.`);
    const leaving = access.caller.kind === 'user' && access.caller.userId === userId;
    if (!leaving) requireRight(access, target.role === 'MEMBER' ? 'removeMembers' : 'removeModerators');
    tx.delete(conversationMembers)
      .where(and(eq(conversationMembers.conversationId, conversation.id), eq(conversationMembers.userId, userId)))
      .run();
    return { announce: () => emitMember('member.removed', conversation, userId, target.role) };
  }

  /** Members of each conversation: one query for a whole page. */
  function memberCounts(conversationIds: string[]): Map<string, number> {
    const counts = new Map(conversationIds.map((id) => [id, 0]));
    if (conversationIds.length === 0) return counts;
    const rows = db
      .select({ conversationId: conversationMembers.conversationId, n: count() })
      .from(conversationMembers)
      .where(inArray(conversationMembers.conversationId, conversationIds))
      .groupBy(conversationMembers.conversationId)
      .all();
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
    access(
      caller: ChatCaller,
      conversationId: string,
      notFound: () => ServiceError = () => conversationNotFound(conversationId),
    ): ConversationAccess {
      const conversation = conversationIn(caller.scope, conversationId);
      if (!conversation) throw notFound();
      if (caller.kind === 'server') return { conversation, caller, role: 'SERVER' };
      const member = findMember(conversationId, caller.userId);
      if (!member) throw notFound();
      return { conversation, caller, role: effectiveRole(member.role, caller.tokenScope) };
    },

    createIn,

    create(caller: ChatCaller, input: NewConversation): ConversationRow {
      const created = db.transaction((tx) => createIn(tx, caller, input));
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

    update(
      access: ConversationAccess,
      patch: { name?: string; metadata?: Record<string, unknown> | null },
    ): ConversationRow {
      requireRight(access, 'updateConversation');
      const { conversation } = access;
      const updated = db.transaction((tx) => {
        if (patch.name !== undefined && patch.name !== conversation.name) {
          const taken = tx
            .select({ id: conversations.id })
            .from(conversations)
            .where(inScope(conversations, access.caller.scope, eq(conversations.name, patch.name)))
            .get();
          if (taken)
            throw conflict(
              'SERVICE_CONVERSATION_EXISTS',
              `A conversation named "${patch.name}" already exists in this environment.`,
            );
        }
        return tx
          .update(conversations)
          .set({
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
            updatedAt: clock.now(),
          })
          .where(eq(conversations.id, conversation.id))
          .returning()
          .get();
      });
      // Committed: from now on readers get the new row.
      return remember(updated);
    },

    listMembers(access: ConversationAccess): ConversationMemberRow[] {
      return db
        .select()
        .from(conversationMembers)
        .where(eq(conversationMembers.conversationId, access.conversation.id))
        .orderBy(conversationMembers.joinedAt, conversationMembers.userId)
        .all();
    },

    addMemberIn,

    /** Adds a member, or changes the role of an existing one (admins only). */
    addMember(access: ConversationAccess, input: { userId: string; role: ConversationRole }): ConversationMemberRow {
      const added = addMemberIn(db, access, input);
      added.announce();
      return added.member;
    },

    removeMemberIn,

    /** Anyone may leave; moderators remove members, admins remove anyone. */
    removeMember(access: ConversationAccess, userId: string): void {
      removeMemberIn(db, access, userId).announce();
    },

    /** The user ids of a conversation's members (for realtime fan-out). */
    /** Whether the user is a member of the conversation (one indexed row, whatever its size). */
    isMember(conversationId: string, userId: string): boolean {
      return findMember(conversationId, userId) !== undefined;
    },

    memberIds(conversationId: string): string[] {
      return membersOf.all({ conversationId }).map((m) => m.userId);
    },

    /** Every conversation a user belongs to in a scope (what a realtime connection receives). */
    conversationIdsOf(scope: EnvironmentScope, userId: string): string[] {
      return conversationsOfUser.all({ ...scope, userId }).map((c) => c.id);
    },

    /** For the dashboard's inspection routes: counts only, never content. */
    stats(scope: EnvironmentScope) {
      const total = db.select({ n: count() }).from(conversations).where(inScope(conversations, scope)).get()?.n ?? 0;
      const users =
        db
          .select({ n: countDistinct(conversationMembers.userId) })
          .from(conversationMembers)
          .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
          .where(inScope(conversations, scope))
          .get()?.n ?? 0;
      return { conversations: total, members: users };
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
