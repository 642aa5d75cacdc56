import type { WebSocket } from 'ws';
import { type EnvironmentScope, isInScope } from '../../../db/scope.js';
import { toIso } from '../../clock.js';
import type { Infrastructure } from '../../context.js';
import { ENVIRONMENT_RESET_REASON } from '../../environment-reset/close.js';
import { ServiceError } from '../../errors.js';
import type { ConnectionInfo } from '../../events/bus.js';
import { sendJson } from '../../http/socket-endpoint.js';
import { encodeCursor } from '../../shared/pagination.js';
import { SPAN_KIND } from '../../tracing/tracing.js';
import type { ChatCaller } from '../caller.js';
import type { ConversationService } from '../conversations/service.js';
import type { EngagementService } from '../engagement/service.js';
import type { MessageService } from '../messages/service.js';
import { createAudience } from './audience.js';
import { type ClusterPresence, createClusterPresence } from './cluster-presence.js';
import { createLocalConnections } from './local-connections.js';
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
/**
 * With other nodes, how often each looks for nodes gone from the node list (dead, or stopped) and declares offline the
 * users they held: a user goes offline at most NODE_TTL_MS (15 s) plus this after their node died.
 */
export const PRESENCE_SWEEP_MS = 5_000;

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
  // Joined, not concatenated: one flat string for each user online, where a template literal keeps its parts.
  [scope.projectId, scope.environment, userId].join('\u0000');
/** The scope and user of a key (as Redis keeps them, cluster-presence.ts). */
const fromUserKey = (key: string): { scope: EnvironmentScope; userId: string } => {
  const [projectId = '', environment, ...userId] = key.split('\u0000');
  return {
    scope: { projectId, environment: environment as EnvironmentScope['environment'] },
    userId: userId.join('\u0000'),
  };
};

/**
 * The realtime side of chat: who is connected (presence), who is typing, and the fan-out of every
 * chat event to the connected members of its conversation.
 *
 * With other nodes (cluster.redis), each keeps its own sockets, and Redis the count each node holds of each user
 * (cluster-presence.ts): Redis decides when a user comes online or goes offline anywhere, and the node that learns it
 * tells every node (`presence.changed` on the bus), each node its own sockets. Typing goes to every node the same way
 * (`typing.changed`), each keeping the whole list. Alone, the same events stay in this node, decided in memory.
 */
export function createRealtimeHub(
  { clock, ids, events, logger, cluster, metrics, tracing }: Infrastructure,
  conversations: ConversationService,
  messages: MessageService,
  engagement: EngagementService,
) {
  /** The sockets on this node, by user. */
  const connections = createLocalConnections<RealtimeConnection>();
  /** Set by close(): sockets that finish closing afterwards must not touch the (closed) database. */
  let closed = false;
  /** conversationId → its scope, and userId → typing expiry (clock time). */
  const typing = new Map<string, { scope: EnvironmentScope; until: Map<string, number> }>();
  /** conversationId → the sockets that asked for its presence changes, whatever its size. */
  const presenceWatchers = new Map<string, Set<RealtimeConnection>>();
  /** Presence across the nodes: none alone, where this node's connections are all there is. */
  const shared = cluster.redis ? createClusterPresence(cluster.redis, cluster.nodeId) : undefined;

  const outbox = createRealtimeOutbox(metrics);
  const send = (connection: RealtimeConnection, message: RealtimeServerMessage) =>
    outbox.push(connection, outbox.encode(message));

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
    for (const connection of connections.of(scope, userId)) audience.add(connection, conversationId);
    for (const pending of connecting.get(userKey(scope, userId)) ?? []) pending.changes.set(conversationId, true);
  };
  const leave = (scope: EnvironmentScope, conversationId: string, userId: string) => {
    for (const connection of connections.of(scope, userId)) {
      audience.remove(connection, conversationId);
      unwatchPresence(connection, conversationId);
    }
    for (const pending of connecting.get(userKey(scope, userId)) ?? []) pending.changes.set(conversationId, false);
  };
  /** Whether the connection is still there (its socket did not close, nor the hub). */
  const isConnected = (connection: RealtimeConnection) => !closed && connections.has(connection);

  function unwatchPresence(connection: RealtimeConnection, conversationId: string): void {
    const watchers = presenceWatchers.get(conversationId);
    watchers?.delete(connection);
    if (watchers?.size === 0) presenceWatchers.delete(conversationId);
  }

  /** The users with a socket in the conversation now (on this node). */
  const onlineIn = (conversationId: string) => [...new Set([...audience.of(conversationId)].map((c) => c.userId))];

  /**
   * Each user's open sockets: on every node with others (this node's only if Redis cannot say: the answer is late
   * rather than refused), on this one alone.
   */
  async function socketCounts(scope: EnvironmentScope, userIds: string[]): Promise<number[]> {
    const here = () => userIds.map((userId) => connections.of(scope, userId).length);
    if (!shared) return here();
    try {
      return await shared.counts(userIds.map((userId) => userKey(scope, userId)));
    } catch (err) {
      logger.warn({ err }, "presence could not be read from Redis: answered with this node's sockets only");
      return here();
    }
  }
  /** The members of the conversation with a socket on any node now. */
  async function onlineAnywhere(scope: EnvironmentScope, conversationId: string): Promise<string[]> {
    const memberIds = await conversations.memberIds(conversationId);
    const counts = await socketCounts(scope, memberIds);
    return memberIds.filter((_userId, i) => (counts[i] ?? 0) > 0);
  }

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
    // which the API tests check by parsing every frame they receive with `realtimeServerMessage`. A span inside a
    // trace (the request that made the change, or its hop from another node) when this node has sockets to tell.
    const recipients = audience.of(conversationId).size;
    const build = () => ({ type, conversationId, data: data() }) as RealtimeEvent;
    if (recipients === 0) fanOut(conversationId, build);
    else
      tracing.inChildSpan(
        'realtime fan-out',
        {
          kind: SPAN_KIND.internal,
          attributes: { 'switchboard.event_type': type, 'switchboard.recipients': recipients },
        },
        () => fanOut(conversationId, build),
      );
    if (type === 'member.removed' && member !== undefined) leave(scope, conversationId, member);
  });

  /**
   * A presence change is news to the others in each of the user's conversations, not to the user: to all of them in
   * a conversation of up to PRESENCE_BROADCAST_LIMIT sockets, to those who watch its presence in a larger one.
   */
  function announcePresence(userId: string, conversationIds: string[], online: boolean, at: number): void {
    const data = { userId, online, at: toIso(at) };
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

  /** Tells every node, this one included, that the user came online or went offline. */
  const emitPresence = (scope: EnvironmentScope, userId: string, online: boolean, conversationIds: string[]) =>
    events.emit('presence.changed', { ...scope, userId, online, at: clock.now(), conversationIds });
  events.on('presence.changed', ({ userId, online, at, conversationIds }) => {
    if (!closed) announcePresence(userId, conversationIds, online, at);
  });

  /** Tells every node, this one included, that the user typed in the conversation (again) or stopped. */
  const emitTyping = (scope: EnvironmentScope, conversationId: string, userId: string, active: boolean) =>
    events.emit('typing.changed', { ...scope, conversationId, userId, typing: active });
  events.on('typing.changed', ({ projectId, environment, conversationId, userId, typing: active }) => {
    if (!closed) setTyping({ projectId, environment }, conversationId, userId, active);
  });

  /** Who is typing, as this node heard it (from every node): its sockets hear each start and stop. */
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
    const gone = closeWhere((of) => isInScope(of, scope), code, reason);
    shared?.forget(gone).catch(markStale);
  }
  /**
   * Every socket closes, and nothing of them stays; no presence change is announced here (nobody is left to hear it).
   * With other nodes, theirs learn it once this node writes its sockets again (see onBusChange below).
   */
  function closeAll(code: number, reason: string): void {
    closeWhere(() => true, code, reason);
  }
  /** Answers the users (their keys) whose sockets it closed. */
  function closeWhere(inScope: (scope: EnvironmentScope) => boolean, code: number, reason: string): string[] {
    const at = clock.now();
    const gone: string[] = [];
    for (const userConnections of connections.removeWhere(inScope)) {
      const [first] = userConnections;
      if (first) gone.push(userKey(first.scope, first.userId));
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
    return gone;
  }
  events.on('environment.reset', (scope) =>
    closeEnvironment(scope, REALTIME_CLOSE.environmentReset, ENVIRONMENT_RESET_REASON),
  );
  // The bus to the other nodes is lost: their events no longer arrive here, and a socket left open would miss them
  // without knowing. Every socket closes; clients come back once the bus is (admission waits for it) and catch up
  // with their cursors.
  cluster.onBusChange((status) => {
    if (status === 'down') closeAll(REALTIME_CLOSE.tryAgainLater, REALTIME_DEGRADED_REASON);
    // Those sockets closed without a word to Redis (away, or not): this node's count there is written whole again,
    // now if Redis is there, or once it is back (with no socket, the node's users left offline everywhere then).
    stale = true;
    keepUp();
  });

  /** Set when Redis may not have this node's sockets right (a write failed, the bus was lost): written whole next. */
  let stale = false;
  function markStale(err: unknown): void {
    if (!stale)
      logger.warn({ err }, 'presence could not be shared through Redis: this node writes it again once it can');
    stale = true;
  }

  /**
   * With other nodes: Redis learns how many sockets of the user this node holds now, and answers whether that made
   * them online anywhere or offline everywhere; if so, every node is told, with the conversations to tell it in.
   */
  function share(scope: EnvironmentScope, userId: string, conversationIds: string[]): void {
    if (!shared) return;
    shared.set(userKey(scope, userId), connections.of(scope, userId).length).then((online) => {
      if (online !== undefined && !closed) emitPresence(scope, userId, online, conversationIds);
    }, markStale);
  }

  /** Users offline everywhere whose sockets this node did not hold: their conversations are read from the database. */
  async function announceOffline(keys: string[]): Promise<void> {
    for (const key of keys) {
      if (closed) return;
      const { scope, userId } = fromUserKey(key);
      try {
        const conversationIds = await conversations.conversationIdsOf(scope, userId);
        if (!closed) emitPresence(scope, userId, false, conversationIds);
      } catch (err) {
        // Redis has them offline already: the REST route says so, only this change is not pushed.
        logger.warn({ err, userId }, 'a user gone offline could not be announced: their conversations were not read');
      }
    }
  }

  /** Writes this node's sockets whole to Redis, and tells every node of the presence changes that made. */
  async function reregister(presence: ClusterPresence): Promise<void> {
    const counts = new Map<string, number>();
    for (const held of connections.users()) {
      const [first] = held;
      if (first) counts.set(userKey(first.scope, first.userId), held.length);
    }
    const { online, offline } = await presence.replace(counts);
    // Later writes were sent after this one: any of them that fails sets it again.
    stale = false;
    for (const key of online) {
      // Closed since: its disconnect's write, sent after, says so.
      const { scope, userId } = fromUserKey(key);
      const held = connections.of(scope, userId);
      if (held.length === 0 || closed) continue;
      emitPresence(scope, userId, true, [...new Set(held.flatMap((c) => audience.conversationsOf(c)))]);
    }
    await announceOffline(offline);
  }

  /**
   * With other nodes: sweeps the nodes gone from the node list (once: the first node to sweep one finds its users),
   * and writes this node's sockets again if Redis may not have them right, or forgot them (another node swept this
   * one, that missed its heartbeats). One run at a time; a run asked for meanwhile follows it.
   */
  let upkeeping = false;
  let upkeepAgain = false;
  function keepUp(): void {
    const presence = shared;
    if (!presence || closed) return;
    // Not while the bus is down: what this would announce could not be relayed (one of the two connections may still
    // write to Redis, and Redis would then hold a change no other node heard). The bus coming back runs it.
    if (cluster.busStatus() === 'down') return;
    if (upkeeping) {
      upkeepAgain = true;
      return;
    }
    upkeeping = true;
    (async () => {
      const { offline, registered } = await presence.sweep();
      await announceOffline(offline);
      if (stale || (!registered && !connections.isEmpty())) await reregister(presence);
    })()
      .catch(markStale)
      .finally(() => {
        upkeeping = false;
        if (upkeepAgain) {
          upkeepAgain = false;
          keepUp();
        }
      });
  }
  const upkeepTimer = shared ? setInterval(keepUp, PRESENCE_SWEEP_MS) : undefined;
  upkeepTimer?.unref();

  /** Typing indicators past their time stop (of the environment `only`, or all). */
  function sweepTyping(only?: EnvironmentScope): void {
    const now = clock.now();
    for (const [conversationId, { scope, until }] of typing) {
      if (only && !isInScope(scope, only)) continue;
      for (const [userId, expiresAt] of until) {
        if (expiresAt <= now) setTyping(scope, conversationId, userId, false);
      }
    }
  }
  const sweep = setInterval(sweepTyping, TYPING_SWEEP_MS);
  sweep.unref();
  /**
   * The environment's test clock was advanced: its typing indicators are that much nearer their end (kept in real
   * time, they move back by the advance), and those it took past their end stop now. A reset moves nothing back.
   */
  events.on('environment.clock_changed', ({ advancedByMs, ...change }) => {
    if (closed || advancedByMs <= 0) return;
    const scope = { projectId: change.projectId, environment: change.environment };
    for (const typers of typing.values()) {
      if (!isInScope(typers.scope, scope)) continue;
      for (const [userId, expiresAt] of typers.until) typers.until.set(userId, expiresAt - advancedByMs);
    }
    sweepTyping(scope);
  });

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
          emitTyping(connection.scope, conversation.id, connection.userId, message.type === 'typing.start');
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
          const online = shared ? await onlineAnywhere(connection.scope, conversation.id) : onlineIn(conversation.id);
          // Closed, or no longer a member, meanwhile (either ends the watch).
          if (!presenceWatchers.get(conversation.id)?.has(connection)) return;
          send(connection, {
            type: 'presence.snapshot',
            conversationId: conversation.id,
            data: { online: online.filter((userId) => userId !== connection.userId) },
          });
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
      const before = connections.add(connection);
      for (const conversationId of conversationIds) audience.add(connection, conversationId);
      // Where this socket starts in the message stream: a message made later sorts after it and is pushed
      // here; one made earlier is listed with `after=<cursor>` by a client catching up after a reconnect.
      const cursor = encodeCursor(ids.next('msg'));
      // Straight to the socket, not through the outbox's paced flushes: the client waits for it to start, and
      // nothing can be ahead of it (what the outbox holds for this socket leaves at its next flush, later).
      sendJson(socket, { type: 'connected', connectionId: connection.id, userId, conversationIds, cursor });
      events.emit('connection.opened', { ...connectionInfo(connection), at: connection.connectedAt });
      if (shared) share(scope, userId, conversationIds);
      else if (before === 0) emitPresence(scope, userId, true, conversationIds);
      return connection;
    },

    /**
     * Closes the scope's sockets on this node that `drawn` picks (an injected fault), and answers how many: each goes
     * as a dropped connection does, through `disconnect` when its close event comes (presence, typing, the record).
     */
    dropShare(scope: EnvironmentScope, drawn: () => boolean, code: number, reason: string): number {
      let dropped = 0;
      for (const connection of connections.each()) {
        if (!isInScope(connection.scope, scope) || !drawn()) continue;
        connection.socket.close(code, reason);
        dropped++;
      }
      return dropped;
    },

    disconnect(connection: RealtimeConnection, close?: { code: number; reason: string }): void {
      // Gone already when its environment was reset (or the hub closed): nothing of it is left to forget.
      if (closed || !connections.has(connection)) return;
      events.emit('connection.closed', {
        ...connectionInfo(connection),
        at: clock.now(),
        code: close?.code ?? null,
        reason: close?.reason ?? null,
      });
      const conversationIds = audience.drop(connection);
      for (const conversationId of conversationIds) unwatchPresence(connection, conversationId);
      const last = connections.remove(connection) === 0;
      if (last) {
        // Conversation ids are unique across projects: these are this user's, not a namesake's elsewhere.
        for (const conversationId of conversationIds) {
          if (typing.get(conversationId)?.until.has(connection.userId))
            emitTyping(connection.scope, conversationId, connection.userId, false);
        }
      }
      if (shared) share(connection.scope, connection.userId, conversationIds);
      else if (last) emitPresence(connection.scope, connection.userId, false, conversationIds);
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
      const memberIds = await conversations.memberIds(conversationId);
      const counts = await socketCounts(scope, memberIds);
      return memberIds.map((userId, i) => {
        const open = counts[i] ?? 0;
        return { userId, online: open > 0, connections: open };
      });
    },

    /** Who is typing in the conversation now (on any node: each hears every start and stop). */
    typing(conversationId: string): { userId: string; expiresAt: string }[] {
      const now = clock.now();
      return [...(typing.get(conversationId)?.until ?? [])]
        .filter(([, expiresAt]) => expiresAt > now)
        .map(([userId, expiresAt]) => ({ userId, expiresAt: toIso(expiresAt) }));
    },

    /** Realtime connections open on this node now. */
    count(): number {
      let count = 0;
      for (const held of connections.users()) count += held.length;
      return count;
    },

    /** Realtime connections of one project environment, oldest first. */
    connections(scope: EnvironmentScope): RealtimeConnection[] {
      return [...connections.each()]
        .filter((c) => isInScope(c.scope, scope))
        .sort((a, b) => a.connectedAt - b.connectedAt);
    },

    /** Shutdown, while the database is still open: every connection's record is closed first. */
    close(code: number = REALTIME_CLOSE.goingAway, reason = 'server shutting down'): void {
      for (const c of connections.each()) {
        events.emit('connection.closed', { ...connectionInfo(c), at: clock.now(), code, reason });
      }
      closed = true;
      clearInterval(sweep);
      clearInterval(upkeepTimer);
      outbox.close();
      connections.clear();
      audience.clear();
      typing.clear();
      presenceWatchers.clear();
    },
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
