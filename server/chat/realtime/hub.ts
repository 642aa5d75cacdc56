import type { WebSocket } from 'ws';
import type { EnvironmentScope } from '../../../db/scope.js';
import { toIso } from '../../clock.js';
import type { Infrastructure } from '../../context.js';
import { ServiceError } from '../../errors.js';
import type { ChatCaller } from '../caller.js';
import type { ConversationService } from '../conversations-service.js';
import type { EngagementService } from '../engagement-service.js';
import type { MessageService } from '../messages-service.js';
import { createRealtimeOutbox } from './outbox.js';
import type { RealtimeClientMessage, RealtimeServerMessage } from './protocol.js';

/** Typing stops by itself this long after the last `typing.start`. */
export const TYPING_TTL_MS = 5_000;
const TYPING_SWEEP_MS = 1_000;

export interface RealtimeConnection {
  id: string;
  userId: string;
  scope: EnvironmentScope;
  connectedAt: number;
  socket: WebSocket;
}

/** One end user: the same user id in another project or environment is someone else. */
const userKey = (scope: EnvironmentScope, userId: string) =>
  `${scope.projectId}\u0000${scope.environment}\u0000${userId}`;

/**
 * The realtime side of chat: who is connected (presence), who is typing, and the fan-out of every
 * chat event to the connected members of its conversation.
 */
export function createRealtimeHub(
  { clock, ids, events }: Infrastructure,
  conversations: ConversationService,
  messages: MessageService,
  engagement: EngagementService,
) {
  const connections = new Map<string, Set<RealtimeConnection>>();
  /** Set by close(): sockets that finish closing afterwards must not touch the (closed) database. */
  let closed = false;
  /** conversationId → userId → typing expiry (clock time). */
  const typing = new Map<string, Map<string, number>>();

  const outbox = createRealtimeOutbox();
  const send = (connection: RealtimeConnection, message: RealtimeServerMessage) =>
    outbox.push(connection.socket, outbox.encode(message));
  const connectionsOf = (scope: EnvironmentScope, userId: string) =>
    connections.get(userKey(scope, userId)) ?? new Set();
  const isOnline = (scope: EnvironmentScope, userId: string) => connectionsOf(scope, userId).size > 0;

  /** Pushes one event to every connected member of the conversation (and to `alsoTo`, e.g. a removed member). */
  function fanOut(
    scope: EnvironmentScope,
    conversationId: string,
    type: string,
    data: Record<string, unknown>,
    { alsoTo = [], except }: { alsoTo?: string[]; except?: string } = {},
  ) {
    const recipients = new Set([...conversations.memberIds(conversationId), ...alsoTo]);
    // A presence change is news to the others, not to the user it is about.
    if (except !== undefined) recipients.delete(except);
    // Serialized once for all recipients, and only if one of them is connected.
    let event: ReturnType<typeof outbox.encode> | undefined;
    for (const userId of recipients) {
      const sockets = connections.get(userKey(scope, userId));
      if (!sockets) continue;
      event ??= outbox.encode({ type, conversationId, data } satisfies RealtimeServerMessage);
      for (const connection of sockets) outbox.push(connection.socket, event);
    }
  }

  events.on('chat', ({ projectId, environment, conversationId, type, data }) => {
    const removed = type === 'member.removed' ? [String((data.member as { userId?: string } | undefined)?.userId)] : [];
    fanOut({ projectId, environment }, conversationId, type, data, { alsoTo: removed });
  });

  function announcePresence(scope: EnvironmentScope, userId: string, online: boolean): void {
    const caller: ChatCaller = { kind: 'server', scope, userId };
    for (const conversation of conversations.list(caller, { limit: 200 }).rows) {
      fanOut(
        scope,
        conversation.id,
        'presence.changed',
        { userId, online, at: toIso(clock.now()) },
        { except: userId },
      );
    }
  }

  function setTyping(scope: EnvironmentScope, conversationId: string, userId: string, active: boolean): void {
    let typers = typing.get(conversationId);
    const wasTyping = typers?.has(userId) ?? false;
    if (active) {
      if (!typers) {
        typers = new Map();
        typing.set(conversationId, typers);
      }
      typers.set(userId, clock.now() + TYPING_TTL_MS);
    } else {
      typers?.delete(userId);
      if (typers?.size === 0) typing.delete(conversationId);
    }
    if (active !== wasTyping) fanOut(scope, conversationId, active ? 'typing.started' : 'typing.stopped', { userId });
  }

  const scopes = new Map<string, EnvironmentScope>();
  const sweep = setInterval(() => {
    const now = clock.now();
    for (const [conversationId, typers] of typing) {
      for (const [userId, expiresAt] of typers) {
        const scope = scopes.get(conversationId);
        if (expiresAt <= now && scope) setTyping(scope, conversationId, userId, false);
      }
    }
  }, TYPING_SWEEP_MS);
  sweep.unref();

  return {
    connect(scope: EnvironmentScope, userId: string, socket: WebSocket): RealtimeConnection {
      const connection: RealtimeConnection = { id: ids.next('conn'), userId, scope, connectedAt: clock.now(), socket };
      const key = userKey(scope, userId);
      const existing = connections.get(key) ?? new Set();
      existing.add(connection);
      connections.set(key, existing);
      const caller: ChatCaller = { kind: 'server', scope, userId };
      const conversationIds = conversations.list(caller, { limit: 200 }).rows.map((c) => c.id);
      send(connection, { type: 'connected', connectionId: connection.id, userId, conversationIds });
      events.emit('connection.opened', {
        id: connection.id,
        ...scope,
        kind: 'realtime',
        identity: userId,
        roomId: null,
        conversationId: null,
        at: connection.connectedAt,
      });
      if (existing.size === 1) announcePresence(scope, userId, true);
      return connection;
    },

    disconnect(connection: RealtimeConnection, close?: { code: number; reason: string }): void {
      if (closed) return;
      events.emit('connection.closed', {
        id: connection.id,
        at: clock.now(),
        code: close?.code ?? null,
        reason: close?.reason ?? null,
      });
      const key = userKey(connection.scope, connection.userId);
      const remaining = connections.get(key);
      remaining?.delete(connection);
      if (remaining && remaining.size > 0) return;
      connections.delete(key);
      for (const [conversationId, typers] of typing) {
        if (typers.has(connection.userId) && scopes.get(conversationId)?.projectId === connection.scope.projectId) {
          setTyping(connection.scope, conversationId, connection.userId, false);
        }
      }
      announcePresence(connection.scope, connection.userId, false);
    },

    handle(connection: RealtimeConnection, message: RealtimeClientMessage): void {
      const caller: ChatCaller = {
        kind: 'user',
        scope: connection.scope,
        userId: connection.userId,
        tokenScope: 'MEMBER',
      };
      try {
        switch (message.type) {
          case 'ping':
            send(connection, { type: 'pong' });
            return;
          case 'typing.start':
          case 'typing.stop': {
            const { conversation } = conversations.access(caller, message.conversationId);
            scopes.set(conversation.id, connection.scope);
            setTyping(connection.scope, conversation.id, connection.userId, message.type === 'typing.start');
            return;
          }
          case 'read': {
            const { message: read } = messages.access(caller, message.messageId);
            engagement.markRead(read, connection.userId);
            return;
          }
        }
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        send(connection, { type: 'error', code: err.code, message: err.message });
      }
    },

    /** Members of the conversation who are connected now. */
    presence(
      conversationId: string,
      scope: EnvironmentScope,
    ): { userId: string; online: boolean; connections: number }[] {
      return conversations.memberIds(conversationId).map((userId) => ({
        userId,
        online: isOnline(scope, userId),
        connections: connectionsOf(scope, userId).size,
      }));
    },

    /** Who is typing in the conversation now. */
    typing(conversationId: string): { userId: string; expiresAt: string }[] {
      const now = clock.now();
      return [...(typing.get(conversationId) ?? [])]
        .filter(([, expiresAt]) => expiresAt > now)
        .map(([userId, expiresAt]) => ({ userId, expiresAt: toIso(expiresAt) }));
    },

    /** Realtime connections of one project environment, oldest first. */
    connections(scope: EnvironmentScope): RealtimeConnection[] {
      return [...connections.values()]
        .flatMap((set) => [...set])
        .filter((c) => c.scope.projectId === scope.projectId && c.scope.environment === scope.environment)
        .sort((a, b) => a.connectedAt - b.connectedAt);
    },

    /** Shutdown, while the database is still open: every connection's record is closed first. */
    close(code = 1001, reason = 'server shutting down'): void {
      for (const set of connections.values()) {
        for (const c of set) events.emit('connection.closed', { id: c.id, at: clock.now(), code, reason });
      }
      closed = true;
      clearInterval(sweep);
      outbox.close();
      connections.clear();
      typing.clear();
    },
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
