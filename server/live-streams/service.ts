import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { ConversationRole } from '../../db/schema/chat.js';
import {
  type HostRole,
  type LiveStreamStatus,
  liveStreamParticipants,
  liveStreams,
  type PARTICIPANT_KINDS,
} from '../../db/schema/live-streams.js';
import { type EnvironmentScope, inScope, scopeValues } from '../../db/scope.js';
import type { Queries } from '../../db/store.js';
import type { Actor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { ConversationService } from '../chat/conversations/service.js';
import type { ChatTokenService } from '../chat/tokens/service.js';
import type { Infrastructure } from '../context.js';
import { conflict, notFound, ServiceError } from '../errors.js';
import type { RoomService } from '../rooms/service.js';
import type { CloseInfo, SignalingHub } from '../rtc/hub.js';
import type { RtcPermissions } from '../rtc/permissions.js';
import { CLOSE } from '../rtc/protocol.js';
import type { RtcTokenService } from '../rtc/token-service.js';
import { decodeCursor, toPage } from '../shared/pagination.js';
import { newestFirstPage } from '../shared/scoped-page.js';

export type LiveStreamRow = typeof liveStreams.$inferSelect;
type ParticipantKind = (typeof PARTICIPANT_KINDS)[number];

const liveStreamNotFound = (id: string) =>
  notFound('SERVICE_LIVE_STREAM_NOT_FOUND', `No live stream ${id} in this project environment.`);

const wrongState = (stream: LiveStreamRow, action: string) =>
  conflict('SERVICE_LIVE_STREAM_STATE', `Cannot ${action} live stream ${stream.id}: it is ${stream.status}.`);

/** The transitions of the lifecycle CREATED → LIVE → ENDED (a CREATED stream may also end unstarted). */
const TRANSITIONS: Record<'start' | 'end', LiveStreamStatus[]> = { start: ['CREATED'], end: ['CREATED', 'LIVE'] };

interface Dependencies {
  audit: AuditService;
  rooms: RoomService;
  conversations: ConversationService;
  rtcTokens: RtcTokenService;
  chatTokens: ChatTokenService;
  signaling: SignalingHub;
}

export function createLiveStreamService({ store, clock, ids, events }: Infrastructure, deps: Dependencies) {
  const { db } = store;
  const catalogueStream = (s: LiveStreamRow) => ({
    id: s.id,
    title: s.title,
    status: s.status,
    roomId: s.roomId,
    conversationId: s.conversationId,
  });
  const emit = (s: LiveStreamRow, type: string, data: Record<string, unknown>) =>
    events.emit('catalogue', { type, projectId: s.projectId, environment: s.environment, data });

  async function get(scope: EnvironmentScope, id: string): Promise<LiveStreamRow> {
    const [stream] = await db
      .select()
      .from(liveStreams)
      .where(inScope(liveStreams, scope, eq(liveStreams.id, id)))
      .limit(1);
    if (!stream) throw liveStreamNotFound(id);
    return stream;
  }

  const activeParticipant = async (streamId: string, identity: string) => {
    const [participant] = await db
      .select()
      .from(liveStreamParticipants)
      .where(
        and(
          eq(liveStreamParticipants.streamId, streamId),
          eq(liveStreamParticipants.identity, identity),
          isNull(liveStreamParticipants.leftAt),
        ),
      )
      .limit(1);
    return participant;
  };

  async function record(tx: Queries, streamId: string, identity: string, kind: ParticipantKind): Promise<void> {
    const joinedAt = clock.now();
    await tx
      .insert(liveStreamParticipants)
      .values({ streamId, identity, kind, joinedAt, leftAt: null })
      .onConflictDoUpdate({
        target: [liveStreamParticipants.streamId, liveStreamParticipants.identity],
        set: { kind, joinedAt, leftAt: null },
      });
  }

  async function markLeft(tx: Queries, streamId: string, identity: string): Promise<void> {
    await tx
      .update(liveStreamParticipants)
      .set({ leftAt: clock.now() })
      .where(and(eq(liveStreamParticipants.streamId, streamId), eq(liveStreamParticipants.identity, identity)));
  }

  /** The stream's chat, as the server reaches it. */
  const streamChat = (scope: EnvironmentScope, stream: LiveStreamRow) =>
    deps.conversations.access({ kind: 'server', scope, userId: undefined }, stream.conversationId);

  /** A participant's RTC token (every publish right, or none) and chat token (with its scope). */
  async function credentials<S extends ConversationRole>(
    scope: EnvironmentScope,
    stream: LiveStreamRow,
    identity: string,
    publish: boolean,
    chatScope: S,
  ) {
    const rtc = await deps.rtcTokens.mint(scope, stream.roomId, {
      identity,
      publish,
      publishAudio: publish,
      publishVideo: publish,
      publishData: publish,
      subscribe: true,
    });
    const chat = await deps.chatTokens.mint({ ...scope, userId: identity, scope: chatScope });
    return { rtc, chat: { ...chat, scope: chatScope } };
  }

  /** When the request names the acting host, only a HOST may invite or remove hosts. */
  async function requireHost(stream: LiveStreamRow, actingIdentity: string | undefined, what: string): Promise<void> {
    if (actingIdentity === undefined) return;
    const acting = await activeParticipant(stream.id, actingIdentity);
    if (acting?.kind !== 'HOST') {
      const role = acting?.kind ?? 'not a host';
      throw new ServiceError(
        'SERVICE_PERMISSION_DENIED',
        `${actingIdentity} (${role}) cannot ${what}; only a HOST can.`,
      );
    }
  }

  function refuseEnded(stream: LiveStreamRow): void {
    if (stream.status === 'ENDED') throw wrongState(stream, 'issue credentials for');
  }

  /**
   * Records who holds a credential (or left) and, when a member did it from the dashboard, the audit entry: in the
   * transaction of the request, with its checks and the stream's chat membership that goes with it, so that a failure
   * leaves none of them and nothing changes between the checks and the writes. The chat's events go out after the
   * commit.
   */
  async function recordParticipantIn(
    tx: Queries,
    scope: EnvironmentScope,
    stream: LiveStreamRow,
    change: { identity: string; kind: ParticipantKind; left?: true },
    auditedBy: Actor | undefined,
    action: string,
  ): Promise<void> {
    if (change.left) await markLeft(tx, stream.id, change.identity);
    else await record(tx, stream.id, change.identity, change.kind);
    if (auditedBy)
      await deps.audit.record(tx, {
        projectId: scope.projectId,
        actor: auditedBy,
        action,
        target: { type: 'live_stream', id: stream.id },
        environment: scope.environment,
        details: { identity: change.identity, role: change.kind },
      });
  }

  return {
    get,

    /** The stream, its room and its conversation: one transaction, so that a failure leaves none of them. */
    async create(scope: EnvironmentScope, input: { title: string }, auditedBy?: Actor): Promise<LiveStreamRow> {
      const id = ids.next('ls');
      const created = await store.transaction(async (tx) => {
        const room = await deps.rooms.createIn(tx, scope, { name: `live-stream-${id}` });
        const chat = await deps.conversations.createIn(
          tx,
          { kind: 'server', scope, userId: undefined },
          { name: `live-stream-${id}` },
        );
        const stream: LiveStreamRow = {
          id,
          ...scopeValues(scope),
          title: input.title,
          status: 'CREATED',
          roomId: room.room.id,
          conversationId: chat.conversation.id,
          createdAt: clock.now(),
          startedAt: null,
          endedAt: null,
        };
        await tx.insert(liveStreams).values(stream);
        if (auditedBy) {
          await deps.audit.record(tx, {
            projectId: scope.projectId,
            actor: auditedBy,
            action: 'live_stream.created',
            target: { type: 'live_stream', id },
            environment: scope.environment,
            details: { title: input.title },
          });
        }
        return { stream, announcements: [room.announce, chat.announce] };
      });
      for (const announce of created.announcements) announce();
      return created.stream;
    },

    /** Newest first. */
    list(scope: EnvironmentScope, query: { limit: number; cursor?: string }) {
      return newestFirstPage(db, liveStreams, scope, query);
    },

    async update(
      scope: EnvironmentScope,
      id: string,
      patch: { title?: string },
      auditedBy?: Actor,
    ): Promise<LiveStreamRow> {
      return store.transaction(async (tx) => {
        const stream = await get(scope, id);
        if (patch.title === undefined || patch.title === stream.title) return stream;
        const [updated] = await tx
          .update(liveStreams)
          .set({ title: patch.title })
          .where(eq(liveStreams.id, id))
          .returning();
        if (auditedBy) {
          await deps.audit.record(tx, {
            projectId: scope.projectId,
            actor: auditedBy,
            action: 'live_stream.updated',
            target: { type: 'live_stream', id },
            environment: scope.environment,
            details: { title: { from: stream.title, to: patch.title } },
          });
        }
        return updated;
      });
    },

    /** CREATED → LIVE, or CREATED/LIVE → ENDED; any other move is a 409 saying what the state is. */
    async transition(
      scope: EnvironmentScope,
      id: string,
      action: 'start' | 'end',
      auditedBy?: Actor,
    ): Promise<LiveStreamRow> {
      const updated = await store.transaction(async (tx) => {
        const stream = await get(scope, id);
        if (!TRANSITIONS[action].includes(stream.status)) throw wrongState(stream, action);
        const now = clock.now();
        const changes =
          action === 'start' ? { status: 'LIVE' as const, startedAt: now } : { status: 'ENDED' as const, endedAt: now };
        const [row] = await tx.update(liveStreams).set(changes).where(eq(liveStreams.id, id)).returning();
        if (auditedBy) {
          await deps.audit.record(tx, {
            projectId: scope.projectId,
            actor: auditedBy,
            action: action === 'start' ? 'live_stream.started' : 'live_stream.ended',
            target: { type: 'live_stream', id },
            environment: scope.environment,
          });
        }
        return row;
      });
      if (action === 'end') deps.signaling.closeRoom(updated.roomId, CLOSE.streamEnded, 'the live stream ended');
      emit(updated, action === 'start' ? 'live_stream.started' : 'live_stream.ended', {
        liveStream: catalogueStream(updated),
      });
      return updated;
    },

    /** A host credential: full publish rights, chat scope ADMIN (HOST) or MODERATOR (CO_HOST). */
    async addHost(
      scope: EnvironmentScope,
      id: string,
      input: { identity: string; role: HostRole; invitedBy?: string },
      auditedBy?: Actor,
    ) {
      const chatScope: 'ADMIN' | 'MODERATOR' = input.role === 'HOST' ? 'ADMIN' : 'MODERATOR';
      const { stream, chat } = await store.transaction(async (tx) => {
        const stream = await get(scope, id);
        refuseEnded(stream);
        await requireHost(stream, input.invitedBy, 'invite hosts');
        const chat = await deps.conversations.addMemberIn(tx, await streamChat(scope, stream), {
          userId: input.identity,
          role: chatScope,
        });
        const change = { identity: input.identity, kind: input.role };
        await recordParticipantIn(tx, scope, stream, change, auditedBy, 'live_stream.host_added');
        return { stream, chat };
      });
      chat.announce();
      const tokens = await credentials(scope, stream, input.identity, true, chatScope);
      emit(stream, 'live_stream.host_joined', { liveStream: { id: stream.id }, identity: input.identity });
      return { stream, identity: input.identity, role: input.role, ...tokens };
    },

    async removeHost(
      scope: EnvironmentScope,
      id: string,
      identity: string,
      removedBy?: string,
      auditedBy?: Actor,
    ): Promise<void> {
      const { stream, chat } = await store.transaction(async (tx) => {
        const stream = await get(scope, id);
        const host = await activeParticipant(stream.id, identity);
        if (!host || host.kind === 'VIEWER')
          throw notFound('SERVICE_HOST_NOT_FOUND', `${identity} is not a host of this live stream.`);
        if (removedBy !== identity) await requireHost(stream, removedBy, 'remove hosts');
        // A host who already left the stream's chat is still removed from the stream.
        const chat = await deps.conversations.removeMemberIn(tx, await streamChat(scope, stream), identity, {
          ifMember: true,
        });
        const change = { identity, kind: host.kind, left: true as const };
        await recordParticipantIn(tx, scope, stream, change, auditedBy, 'live_stream.host_removed');
        return { stream, chat };
      });
      chat.announce();
      deps.signaling.disconnect(stream.roomId, identity, CLOSE.notParticipant, 'removed as a host');
    },

    /** A viewer credential: no publish right of any kind, chat scope MEMBER. */
    async viewerToken(scope: EnvironmentScope, id: string, identity: string, auditedBy?: Actor) {
      const { stream, chat } = await store.transaction(async (tx) => {
        const stream = await get(scope, id);
        refuseEnded(stream);
        const existing = await activeParticipant(stream.id, identity);
        if (existing && existing.kind !== 'VIEWER') {
          throw conflict(
            'SERVICE_ALREADY_HOST',
            `${identity} is a ${existing.kind} of this live stream; hosts use their host credential.`,
          );
        }
        const access = await streamChat(scope, stream);
        // Already in the chat (added to it directly), the viewer keeps the role they have there.
        const chat = (await deps.conversations.isMember(stream.conversationId, identity))
          ? undefined
          : await deps.conversations.addMemberIn(tx, access, { userId: identity, role: 'MEMBER' });
        const change = { identity, kind: 'VIEWER' as const };
        await recordParticipantIn(tx, scope, stream, change, auditedBy, 'live_stream.viewer_added');
        return { stream, chat };
      });
      chat?.announce();
      const tokens = await credentials(scope, stream, identity, false, 'MEMBER');
      emit(stream, 'live_stream.viewer_joined', { liveStream: { id: stream.id }, identity });
      return { stream, identity, ...tokens };
    },

    /**
     * Why an RTC token may not join `roomId` now, when the room is a live stream's. A token outlives
     * what it was issued for, so the stream's current record decides: nobody joins an ended stream; an
     * identity that was removed or left needs a new credential; and a token may not carry publish
     * rights its holder no longer has (a removed host given a viewer credential keeps the old token).
     * Identities the stream never issued a credential to hold tokens minted on the room by the key
     * holder itself, which the room's own rules govern.
     */
    async admissionRefusal(
      scope: EnvironmentScope,
      roomId: string,
      identity: string,
      permissions: RtcPermissions,
    ): Promise<CloseInfo | undefined> {
      const [stream] = await db
        .select()
        .from(liveStreams)
        .where(inScope(liveStreams, scope, eq(liveStreams.roomId, roomId)))
        .limit(1);
      if (!stream) return undefined;
      if (stream.status === 'ENDED') return { code: CLOSE.streamEnded, reason: `live stream ${stream.id} has ended` };
      const [participant] = await db
        .select()
        .from(liveStreamParticipants)
        .where(and(eq(liveStreamParticipants.streamId, stream.id), eq(liveStreamParticipants.identity, identity)))
        .limit(1);
      if (!participant) return undefined;
      // Close reasons are at most 123 bytes: the stream id, not the identity (up to 128 characters).
      if (participant.leftAt !== null)
        return {
          code: CLOSE.notParticipant,
          reason:
            participant.kind === 'VIEWER'
              ? `left live stream ${stream.id}; ask for a new viewer credential`
              : `not a host of live stream ${stream.id} any more`,
        };
      if (participant.kind === 'VIEWER' && (permissions.publish || permissions.publishData))
        return { code: CLOSE.notParticipant, reason: `not a host of live stream ${stream.id} (a viewer now)` };
      return undefined;
    },

    /**
     * Who the stream issued credentials to, by identity, with whether each is in the room now (on any node: the
     * signaling hub's view; a page's worth of lookups).
     */
    async participants(
      scope: EnvironmentScope,
      id: string,
      query: { kind?: 'host' | 'viewer'; limit: number; cursor?: string },
    ) {
      const stream = await get(scope, id);
      const after = decodeCursor(query.cursor);
      const kinds: ParticipantKind[] | undefined =
        query.kind === 'host' ? ['HOST', 'CO_HOST'] : query.kind === 'viewer' ? ['VIEWER'] : undefined;
      const rows = await db
        .select()
        .from(liveStreamParticipants)
        .where(
          and(
            eq(liveStreamParticipants.streamId, stream.id),
            after === undefined ? undefined : gt(liveStreamParticipants.identity, after),
            kinds ? inArray(liveStreamParticipants.kind, kinds) : undefined,
          ),
        )
        .orderBy(asc(liveStreamParticipants.identity))
        .limit(query.limit + 1);
      const inRoom = await deps.signaling.participants(stream.roomId);
      const connected = new Map(inRoom.map((p) => [p.identity, p.joinedAt]));
      const page = toPage(
        rows.map((row) => ({ ...row, id: row.identity })),
        query.limit,
      );
      return {
        rows: page.rows.map((row) => ({ ...row, connectedAt: connected.get(row.identity) ?? null })),
        nextCursor: page.nextCursor,
      };
    },

    /** Records that a participant (host or viewer) left; their room connection is closed. */
    async leave(scope: EnvironmentScope, id: string, identity: string): Promise<void> {
      const stream = await store.transaction(async (tx) => {
        const stream = await get(scope, id);
        if (!(await activeParticipant(stream.id, identity))) {
          throw notFound('SERVICE_PARTICIPANT_NOT_FOUND', `${identity} is not in this live stream.`);
        }
        await markLeft(tx, stream.id, identity);
        return stream;
      });
      deps.signaling.disconnect(stream.roomId, identity, CLOSE.normal, 'left the live stream');
    },
  };
}

export type LiveStreamService = ReturnType<typeof createLiveStreamService>;
