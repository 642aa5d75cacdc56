import type { EnvironmentScope } from '../../db/scope.js';
import type { ChatCaller } from '../chat/caller.js';
import type { ConversationRow, ConversationService } from '../chat/conversations/service.js';
import type { EngagementService } from '../chat/engagement/service.js';
import type { MessageRow, MessageService } from '../chat/messages/service.js';
import type { Cluster } from '../cluster/cluster.js';
import { ServiceError } from '../errors.js';
import type { LiveStreamRow, LiveStreamService } from '../live-streams/service.js';
import type { RoomRow, RoomService } from '../rooms/service.js';
import type { SignalingHub } from '../rtc/hub.js';
import { CLOSE } from '../rtc/protocol.js';
import { headlessSocket } from './headless-socket.js';
import type { TriggeredObjects } from './schemas.js';

export interface TriggerDependencies {
  conversations: ConversationService;
  messages: MessageService;
  engagement: EngagementService;
  rooms: RoomService;
  signaling: SignalingHub;
  liveStreams: LiveStreamService;
}

/** The end users triggers act as: fixed, so that a test can connect a chat client as one of them beforehand. */
export const TRIGGER_USERS = { alice: 'trigger-alice', bob: 'trigger-bob' } as const;
const { alice, bob } = TRIGGER_USERS;
const EMOJI = '👍';

/**
 * The steps a trigger is made of. Each goes through the domain service an API request would reach (as the app's
 * server, with an API key's full rights), so that its events are the real ones: to realtime sockets, webhooks and the
 * live event stream alike. Each notes in `objects` what it made or acted on, so that a trigger that fails half-way
 * still says (and audits) what it left behind. `label` names what it creates (unique: names are, in an environment).
 */
export function triggerSteps(
  deps: TriggerDependencies,
  cluster: Pick<Cluster, 'busStatus'>,
  scope: EnvironmentScope,
  names: { label: string; slug: string },
  objects: TriggeredObjects,
) {
  const server: ChatCaller = { kind: 'server', scope, userId: undefined };
  const access = (c: ConversationRow) => deps.conversations.access(server, c.id);
  const noteStream = (s: LiveStreamRow) => {
    objects.liveStream = {
      id: s.id,
      title: s.title,
      status: s.status,
      roomId: s.roomId,
      conversationId: s.conversationId,
    };
  };

  return {
    /** A conversation of `members`, the first its creator (ADMIN), the others MEMBERs. */
    async conversation(members: string[] = [alice, bob]): Promise<ConversationRow> {
      const [creator, ...others] = members;
      const c = await deps.conversations.create(server, {
        name: names.label,
        createdBy: creator,
        members: others.map((userId) => ({ userId, role: 'MEMBER' as const })),
      });
      objects.conversation = { id: c.id, name: c.name, members: [...members] };
      return c;
    },

    async addMember(c: ConversationRow, userId: string): Promise<void> {
      await deps.conversations.addMember(await access(c), { userId, role: 'MEMBER' });
      objects.member = { conversationId: c.id, userId };
      objects.conversation?.members.push(userId);
    },

    async removeMember(c: ConversationRow, userId: string): Promise<void> {
      await deps.conversations.removeMember(await access(c), userId);
      objects.member = { conversationId: c.id, userId };
      if (objects.conversation) objects.conversation.members = objects.conversation.members.filter((u) => u !== userId);
    },

    /** A message from alice. */
    async message(c: ConversationRow): Promise<MessageRow> {
      const m = await deps.messages.send(await access(c), alice, { text: `Hello from ${names.label}` });
      objects.message = { id: m.id, conversationId: c.id, senderId: m.senderId };
      return m;
    },

    edit: (m: MessageRow) => deps.messages.edit(server, m.id, `Edited by ${names.label}`),

    deleteMessage: (m: MessageRow) => deps.messages.delete(server, m.id),

    /** Bob's 👍 on the message. */
    async react(m: MessageRow): Promise<void> {
      await deps.engagement.react(m, bob, EMOJI);
      objects.reaction = { messageId: m.id, userId: bob, emoji: EMOJI };
    },

    unreact: (m: MessageRow) => deps.engagement.unreact(m, bob, EMOJI),

    async room(): Promise<RoomRow> {
      const room = await deps.rooms.create(scope, { name: names.slug });
      objects.room = { id: room.id, name: room.name };
      return room;
    },

    deleteRoom: (room: RoomRow) => deps.rooms.delete(scope, room.id),

    /**
     * Alice joins the room through the signaling hub, as an admitted socket does, and leaves it at once: a participant
     * of the server's own has no socket to stay on, and would otherwise stay in the room's list. Her socket is
     * headless (what the room sends her goes nowhere); the others in the room see her come and go.
     */
    async joinAndLeave(room: RoomRow): Promise<void> {
      const unavailable = (why: string) =>
        new ServiceError('SERVICE_UNAVAILABLE', `The triggered participant could not join room ${room.id}: ${why}.`);
      // As the signaling endpoint: without the bus, the other nodes' participants would not hear of her.
      if (cluster.busStatus() === 'down') throw unavailable('the cluster’s bus (Redis) is unreachable; retry');
      const joined = await deps.signaling.join(
        {
          identity: alice,
          name: null,
          permissions: { publish: true, publishAudio: true, publishVideo: true, publishData: true, subscribe: true },
          scope,
          room: { id: room.id, name: room.name },
          socket: headlessSocket(),
        },
        room.maxParticipants,
      );
      if (joined === 'unavailable') throw unavailable('the cluster’s Redis is unreachable; retry');
      if (typeof joined === 'string') throw unavailable(joined === 'full' ? 'it is full' : 'it was closed meanwhile');
      objects.participant = { roomId: room.id, identity: alice };
      await deps.signaling.leave(joined, { code: CLOSE.normal, reason: 'the triggered participant left' });
    },

    async liveStream(): Promise<LiveStreamRow> {
      const stream = await deps.liveStreams.create(scope, { title: names.label });
      noteStream(stream);
      return stream;
    },

    async transition(stream: LiveStreamRow, action: 'start' | 'end'): Promise<LiveStreamRow> {
      const moved = await deps.liveStreams.transition(scope, stream.id, action);
      noteStream(moved);
      return moved;
    },

    /** Alice as the stream's HOST (her credential is minted, and not kept). */
    async host(stream: LiveStreamRow): Promise<void> {
      await deps.liveStreams.addHost(scope, stream.id, { identity: alice, role: 'HOST' });
      objects.liveStreamParticipant = { liveStreamId: stream.id, identity: alice, role: 'HOST' };
    },

    /** Bob as a viewer (his credential is minted, and not kept). */
    async viewer(stream: LiveStreamRow): Promise<void> {
      await deps.liveStreams.viewerToken(scope, stream.id, bob);
      objects.liveStreamParticipant = { liveStreamId: stream.id, identity: bob, role: 'VIEWER' };
    },
  };
}

export type TriggerSteps = ReturnType<typeof triggerSteps>;
