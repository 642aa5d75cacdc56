import type { WebSocket } from 'ws';
import { type EnvironmentScope, isInScope } from '../../../db/scope.js';
import { toIso } from '../../clock.js';
import type { Infrastructure } from '../../context.js';
import { ENVIRONMENT_RESET_REASON } from '../../environment-reset/close.js';
import { ServiceError } from '../../errors.js';
import type { ConnectionInfo } from '../../events/bus.js';
import { sendJson } from '../../http/socket-endpoint.js';
import { encodeCursor } from '../../shared/pagination.js';
import type { ChatCaller } from '../caller.js';
import type { ConversationService } from '../conversations/service.js';
import type { EngagementService } from '../engagement/service.js';
import type { MessageService } from '../messages/service.js';
import { createAudience } from './audience.js';
import { createRealtimeOutbox } from './outbox.js';
import {
  REALTIME_CLOSE,
  REALTIME_DEGRADED_REASON,
  type RealtimeClientMessage,
  type RealtimeEvent,
  type RealtimeServerMessage,
} from './protocol.js';

/**
 * A presence change goes to every connected member of a conversation while it reaches at most this many sockets;
 * beyond, only to the sockets that watch the conversation's presence (`presence.watch`). Pushed to everyone, presence
 * costs each connect one frame per member online: in a conversation of 10,000 that grows with the square of them.
 */
export const PRESENCE_BROADCAST_LIMIT = 100;

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

const connectionInfo = (c: RealtimeConnection): ConnectionInfo => ({
  id: c.id,
  ...c.scope,
  kind: 'realtime',
  identity: c.userId,
  roomId: null,
  conversationId: null,
});

/** One end user: the same user id in another project or environment is someone else. */
const userKey = (scope: EnvironmentScope, userId: string) =>
  `${scope.projectId}\u0000${scope.environment}\u0000${userId}`;

/**
 * The realtime side of chat: who is connected (presence), who is typing, and the fan-out of every
 * chat event to the connected members of its conversation.
 */
export function createRealtimeHub(
  { clock, ids, events, logger, cluster }: Infrastructure,
  conversations: ConversationService,
  messages: MessageService,
  engagement: EngagementService,
) {
  const connections = new Map<string, Set<RealtimeConnection>>();
  /** Set by close(): sockets that finish closing afterwards must not touch the (closed) database. */
  let closed = false;
  /** conversationId → its scope, and userId → typing expiry (clock time). */
  const typing = new Map<string, { scope: EnvironmentScope; until: Map<string, number> }>();
  /** conversationId → the sockets that asked for its presence changes, whatever its size. */
  const presenceWatchers = new Map<string, Set<RealtimeConnection>>();

  const outbox = createRealtimeOutbox();
  const send = (connection: RealtimeConnection, message: RealtimeServerMessage) =>
    outbox.push(connection, outbox.encode(message));
  const connectionsOf = (scope: EnvironmentScope, userId: string) =>
    connections.get(userKey(scope, userId)) ?? new Set();

  /**
   * Sockets admitted but not connected yet, by user: while one reads its user's conversations from the database, the
   * membership changes of its user are noted (conversation id → member or not), to correct what it read.
   */
  const connecting = new Map<
    string,
    Set<{ scope: EnvironmentScope; socket: WebSocket; changes: Map<string, boolean> }>
  >();

  const audience = createAudience<RealtimeConnection>();
  /** Every connection of the user (in this scope) hears from the conversation from now on. */
  const join = (scope: EnvironmentScope, conversationId: string, userId: string) => {
    const key = userKey(scope, userId);
    for (const connection of connections.get(key) ?? []) audience.add(connection, conversationId);
    for (const pending of connecting.get(key) ?? []) pending.changes.set(conversationId, true);
  };
  const leave = (scope: EnvironmentScope, conversationId: string, userId: string) => {
    const key = userKey(scope, userId);
    for (const connection of connections.get(key) ?? []) {
      audience.remove(connection, conversationId);
      unwatchPresence(connection, conversationId);
    }
    for (const pending of connecting.get(key) ?? []) pending.changes.set(conversationId, false);
  };
  /** Whether the connection is still there (its socket did not close, nor the hub). */
  const isConnected = (connection: RealtimeConnection) =>
    !closed && (connections.get(userKey(connection.scope, connection.userId))?.has(connection) ?? false);

  function unwatchPresence(connection: RealtimeConnection, conversationId: string): void {
    const watchers = presenceWatchers.get(conversationId);
    watchers?.delete(connection);
    if (watchers?.size === 0) presenceWatchers.delete(conversationId);
  }

  /** The users with a socket in the conversation now. */
  const onlineIn = (conversationId: string) => [...new Set([...audience.of(conversationId)].map((c) => c.userId))];

  /**
   * Queues one event for every connection the conversation reaches, except those of the user `except`: built and
   * serialized once for all of them, and only if someone is connected.
   */
  function fanOut(conversationId: string, build: () => RealtimeEvent, except?: string) {
    const recipients = audience.of(conversationId);
    if (recipients.size === 0) return;
    outbox.broadcast(recipients, outbox.encode(build()), except);
  }

  /** The user a membership change is about. */
  const memberOf = (data: Record<string, unknown>) => (data.member as { userId?: string } | undefined)?.userId;

  events.on('chat', ({ projectId, environment, conversationId, type, data, members }) => {
    const scope = { projectId, environment };
    if (type === 'conversation.created') {
      for (const userId of members ?? []) join(scope, conversationId, userId);
    }
    const member = type === 'member.added' || type === 'member.removed' ? memberOf(data()) : undefined;
    // A new member hears of their own arrival; a removed one hears of their removal, then nothing more.
    if (type === 'member.added' && member !== undefined) join(scope, conversationId, member);
    // The bus carries chat changes loosely typed (`type: string`); the frame is the protocol's event of that type,
    // which the API tests check by parsing every frame they receive with `realtimeServerMessage`.
    fanOut(conversationId, () => ({ type, conversationId, data: data() }) as RealtimeEvent);
    if (type === 'member.removed' && member !== undefined) leave(scope, conversationId, member);
  });

  /**
   * A presence change is news to the others in each of the user's conversations, not to the user: to all of them in
   * a conversation of up to PRESENCE_BROADCAST_LIMIT sockets, to those who watch its presence in a larger one.
   */
  function announcePresence(userId: string, conversationIds: string[], online: boolean): void {
    const data = { userId, online, at: toIso(clock.now()) };
    for (const conversationId of conversationIds) {
      const build = (): RealtimeEvent => ({ type: 'presence.changed', conversationId, data });
      if (audience.size(conversationId) <= PRESENCE_BROADCAST_LIMIT) fanOut(conversationId, build, userId);
      else {
        const watchers = presenceWatchers.get(conversationId);
        // A copy: the outbox keeps the set it is given until its next flush.
        if (watchers) outbox.broadcast(new Set(watchers), outbox.encode(build()), userId);
      }
    }
  }

  function setTyping(scope: EnvironmentScope, conversationId: string, userId: string, active: boolean): void {
    let typers = typing.get(conversationId);
    const wasTyping = typers?.until.has(userId) ?? false;
    if (active) {
      if (!typers) {
        typers = { scope, until: new Map() };
        typing.set(conversationId, typers);
      }
      typers.until.set(userId, clock.now() + TYPING_TTL_MS);
    } else {
      typers?.until.delete(userId);
      if (typers?.until.size === 0) typing.delete(conversationId);
    }
    if (active !== wasTyping)
      fanOut(conversationId, () => ({
        type: active ? 'typing.started' : 'typing.stopped',
        conversationId,
        data: { userId },
      }));
  }

  /**
   * An environment reset: the scope's sockets close with `code` and `reason`, and nothing of them stays (presence,
   * typing, watches). No presence change is announced: everyone who could hear one is in the scope, leaving too.
   */
  function closeEnvironment(scope: EnvironmentScope, code: number, reason: string): void {
    closeWhere((of) => isInScope(of, scope), code, reason);
  }
  /** Every socket closes, and nothing of them stays; no presence change is announced (nobody is left to hear it). */
  function closeAll(code: number, reason: string): void {
    closeWhere(() => true, code, reason);
  }
  function closeWhere(inScope: (scope: EnvironmentScope) => boolean, code: number, reason: string): void {
    const at = clock.now();
    for (const [key, userConnections] of connections) {
      const [first] = userConnections;
      if (!first || !inScope(first.scope)) continue;
      connections.delete(key);
      for (const connection of userConnections) {
        for (const conversationId of audience.drop(connection)) unwatchPresence(connection, conversationId);
        events.emit('connection.closed', { ...connectionInfo(connection), at, code, reason });
        connection.socket.close(code, reason);
      }
    }
    for (const [conversationId, typers] of typing) if (inScope(typers.scope)) typing.delete(conversationId);
    // Those still reading their conversations never connect: their socket is closing.
    for (const pending of connecting.values()) {
      for (const { scope: of, socket } of pending) if (inScope(of)) socket.close(code, reason);
    }
  }
  events.on('environment.reset', (scope) =>
    closeEnvironment(scope, REALTIME_CLOSE.environmentReset, ENVIRONMENT_RESET_REASON),
  );
  // The bus to the other nodes is lost: their events no longer arrive here, and a socket left open would miss them
  // without knowing. Every socket closes; clients come back once the bus is (admission waits for it) and catch up
  // with their cursors.
  cluster.onBusChange((status) => {
    if (status === 'down') closeAll(REALTIME_CLOSE.tryAgainLater, REALTIME_DEGRADED_REASON);
  });

  const sweep = setInterval(() => {
    const now = clock.now();
    for (const [conversationId, { scope, until }] of typing) {
      for (const [userId, expiresAt] of until) {
        if (expiresAt <= now) setTyping(scope, conversationId, userId, false);
      }
    }
  }, TYPING_SWEEP_MS);
  sweep.unref();

  /** The user's conversations, as the database has them, corrected by the changes heard while reading them. */
  async function conversationIdsOf(scope: EnvironmentScope, userId: string, socket: WebSocket): Promise<string[]> {
    const key = userKey(scope, userId);
    const pending = { scope, socket, changes: new Map<string, boolean>() };
    const ofUser = connecting.get(key) ?? new Set();
    ofUser.add(pending);
    connecting.set(key, ofUser);
    try {
      const conversationIds = new Set(await conversations.conversationIdsOf(scope, userId));
      for (const [conversationId, member] of pending.changes) {
        if (member) conversationIds.add(conversationId);
        else conversationIds.delete(conversationId);
      }
      return [...conversationIds];
    } finally {
      ofUser.delete(pending);
      if (ofUser.size === 0) connecting.delete(key);
    }
  }

  /** One frame of a connection (its earlier frames are done); dropped if its socket closes meanwhile. */
  async function handleFrame(connection: RealtimeConnection, message: RealtimeClientMessage): Promise<void> {
    if (!isConnected(connection)) return;
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
          const { conversation } = await conversations.access(caller, message.conversationId);
          if (!isConnected(connection)) return;
          setTyping(connection.scope, conversation.id, connection.userId, message.type === 'typing.start');
          return;
        }
        case 'read': {
          const { message: read } = await messages.access(caller, message.messageId);
          if (!isConnected(connection)) return;
          await engagement.markRead(read, connection.userId);
          return;
        }
        case 'presence.watch': {
          const { conversation } = await conversations.access(caller, message.conversationId);
          if (!isConnected(connection)) return;
          const watchers = presenceWatchers.get(conversation.id) ?? new Set();
          watchers.add(connection);
          presenceWatchers.set(conversation.id, watchers);
          const online = onlineIn(conversation.id).filter((userId) => userId !== connection.userId);
          send(connection, { type: 'presence.snapshot', conversationId: conversation.id, data: { online } });
          return;
        }
        case 'presence.unwatch':
          unwatchPresence(connection, message.conversationId);
          return;
      }
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      if (isConnected(connection)) send(connection, { type: 'error', code: err.code, message: err.message });
    }
  }
  /** Each connection's frames in the order they arrived: the promise of the last one. */
  const handling = new WeakMap<RealtimeConnection, Promise<void>>();

  return {
    /**
     * Registers an admitted socket: undefined if it closed (or the hub did) while its conversations were read, when
     * there is nothing to register.
     */
    async connect(scope: EnvironmentScope, userId: string, socket: WebSocket): Promise<RealtimeConnection | undefined> {
      const conversationIds = await conversationIdsOf(scope, userId, socket);
      if (closed || socket.readyState !== socket.OPEN) return undefined;
      // From here on nothing is awaited: the connection is registered, joins its conversations and gets its
      // `connected` frame at once, so that no event between them is missed or arrives before that frame.
      const connection: RealtimeConnection = { id: ids.next('conn'), userId, scope, connectedAt: clock.now(), socket };
      const key = userKey(scope, userId);
      const existing = connections.get(key) ?? new Set();
      existing.add(connection);
      connections.set(key, existing);
      for (const conversationId of conversationIds) audience.add(connection, conversationId);
      // Where this socket starts in the message stream: a message made later sorts after it and is pushed
      // here; one made earlier is listed with `after=<cursor>` by a client catching up after a reconnect.
      const cursor = encodeCursor(ids.next('msg'));
      // Straight to the socket, not through the outbox's paced flushes: the client waits for it to start, and
      // nothing can be ahead of it (what the outbox holds for this socket leaves at its next flush, later).
      sendJson(socket, { type: 'connected', connectionId: connection.id, userId, conversationIds, cursor });
      events.emit('connection.opened', { ...connectionInfo(connection), at: connection.connectedAt });
      if (existing.size === 1) announcePresence(userId, conversationIds, true);
      return connection;
    },

    disconnect(connection: RealtimeConnection, close?: { code: number; reason: string }): void {
      const key = userKey(connection.scope, connection.userId);
      // Gone already when its environment was reset (or the hub closed): nothing of it is left to forget.
      if (closed || !connections.get(key)?.has(connection)) return;
      events.emit('connection.closed', {
        ...connectionInfo(connection),
        at: clock.now(),
        code: close?.code ?? null,
        reason: close?.reason ?? null,
      });
      const conversationIds = audience.drop(connection);
      for (const conversationId of conversationIds) unwatchPresence(connection, conversationId);
      const remaining = connections.get(key);
      remaining?.delete(connection);
      if (remaining && remaining.size > 0) return;
      connections.delete(key);
      // Conversation ids are unique across projects: these are this user's, not a namesake's elsewhere.
      for (const conversationId of conversationIds) {
        if (typing.get(conversationId)?.until.has(connection.userId))
          setTyping(connection.scope, conversationId, connection.userId, false);
      }
      announcePresence(connection.userId, conversationIds, false);
    },

    /** Handles a frame after the connection's earlier ones: one at a time, in the order they arrived. */
    handle(connection: RealtimeConnection, message: RealtimeClientMessage): void {
      const run = () =>
        handleFrame(connection, message).catch((err: unknown) =>
          logger.error({ err, connectionId: connection.id, type: message.type }, 'realtime frame failed'),
        );
      const previous = handling.get(connection);
      handling.set(connection, previous === undefined ? run() : previous.then(run));
    },

    /** Members of the conversation who are connected now. */
    async presence(
      conversationId: string,
      scope: EnvironmentScope,
    ): Promise<{ userId: string; online: boolean; connections: number }[]> {
      return (await conversations.memberIds(conversationId)).map((userId) => {
        const open = connectionsOf(scope, userId).size;
        return { userId, online: open > 0, connections: open };
      });
    },

    /** Who is typing in the conversation now. */
    typing(conversationId: string): { userId: string; expiresAt: string }[] {
      const now = clock.now();
      return [...(typing.get(conversationId)?.until ?? [])]
        .filter(([, expiresAt]) => expiresAt > now)
        .map(([userId, expiresAt]) => ({ userId, expiresAt: toIso(expiresAt) }));
    },

    /** Realtime connections open on this node now. */
    count(): number {
      let count = 0;
      for (const set of connections.values()) count += set.size;
      return count;
    },

    /** Realtime connections of one project environment, oldest first. */
    connections(scope: EnvironmentScope): RealtimeConnection[] {
      return [...connections.values()]
        .flatMap((set) => [...set])
        .filter((c) => isInScope(c.scope, scope))
        .sort((a, b) => a.connectedAt - b.connectedAt);
    },

    /** Shutdown, while the database is still open: every connection's record is closed first. */
    close(code: number = REALTIME_CLOSE.goingAway, reason = 'server shutting down'): void {
      for (const set of connections.values()) {
        for (const c of set) events.emit('connection.closed', { ...connectionInfo(c), at: clock.now(), code, reason });
      }
      closed = true;
      clearInterval(sweep);
      outbox.close();
      connections.clear();
      audience.clear();
      typing.clear();
      presenceWatchers.clear();
    },
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
