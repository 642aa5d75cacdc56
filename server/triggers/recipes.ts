import type { EventType } from '../webhooks/catalogue.js';
import { TRIGGER_USERS, type TriggerSteps } from './steps.js';

const { alice, bob } = TRIGGER_USERS;

export interface Recipe {
  /** What the trigger does, for people (the list route, the CLI's `--list`). */
  description: string;
  /**
   * The catalogue events it emits, in order, the triggered one among them (last, but for `conversation.created`,
   * followed by its members' `member.added`, and `participant.joined`, by `participant.left`). Declared rather than
   * overheard on the bus, where the environment's other traffic of the moment would mix in; the API tests check each
   * list against what a webhook endpoint subscribed to everything receives.
   */
  events: EventType[];
  run(steps: TriggerSteps): Promise<void>;
}

const CONVERSATION: EventType[] = ['conversation.created', 'member.added', 'member.added'];
const WITH_MESSAGE: EventType[] = [...CONVERSATION, 'message.created'];
const STREAM: EventType[] = ['room.created', 'conversation.created'];
const twoMembers = `a conversation of ${alice} (ADMIN) and ${bob}`;

/**
 * One minimal real sequence per event of the catalogue (a `Record` of every `EventType`: a new event type does not
 * compile without its trigger).
 */
export const RECIPES: Record<EventType, Recipe> = {
  'message.created': {
    description: `Creates ${twoMembers}; ${alice} posts a message.`,
    events: WITH_MESSAGE,
    run: async (s) => void (await s.message(await s.conversation())),
  },
  'message.updated': {
    description: `Creates ${twoMembers}; ${alice} posts a message, which is then edited.`,
    events: [...WITH_MESSAGE, 'message.updated'],
    run: async (s) => void (await s.edit(await s.message(await s.conversation()))),
  },
  'message.deleted': {
    description: `Creates ${twoMembers}; ${alice} posts a message, which is then deleted.`,
    events: [...WITH_MESSAGE, 'message.deleted'],
    run: async (s) => s.deleteMessage(await s.message(await s.conversation())),
  },
  'reaction.added': {
    description: `Creates ${twoMembers}; ${alice} posts a message, ${bob} reacts to it with 👍.`,
    events: [...WITH_MESSAGE, 'reaction.added'],
    run: async (s) => s.react(await s.message(await s.conversation())),
  },
  'reaction.removed': {
    description: `Creates ${twoMembers}; ${alice} posts a message, ${bob} reacts to it with 👍, then takes it back.`,
    events: [...WITH_MESSAGE, 'reaction.added', 'reaction.removed'],
    async run(s) {
      const message = await s.message(await s.conversation());
      await s.react(message);
      await s.unreact(message);
    },
  },
  'conversation.created': {
    description: `Creates ${twoMembers}.`,
    events: CONVERSATION,
    run: async (s) => void (await s.conversation()),
  },
  'member.added': {
    description: `Creates a conversation of ${alice} (ADMIN); ${bob} is added to it.`,
    events: ['conversation.created', 'member.added', 'member.added'],
    run: async (s) => s.addMember(await s.conversation([alice]), bob),
  },
  'member.removed': {
    description: `Creates ${twoMembers}; ${bob} is removed from it.`,
    events: [...CONVERSATION, 'member.removed'],
    run: async (s) => s.removeMember(await s.conversation(), bob),
  },
  'room.created': {
    description: 'Creates a room.',
    events: ['room.created'],
    run: async (s) => void (await s.room()),
  },
  'room.deleted': {
    description: 'Creates a room, then deletes it.',
    events: ['room.created', 'room.deleted'],
    run: async (s) => s.deleteRoom(await s.room()),
  },
  'participant.joined': {
    description: `Creates a room; ${alice} joins it through the signaling hub and leaves it at once.`,
    events: ['room.created', 'participant.joined', 'participant.left'],
    run: async (s) => s.joinAndLeave(await s.room()),
  },
  'participant.left': {
    description: `Creates a room; ${alice} joins it through the signaling hub and leaves it at once.`,
    events: ['room.created', 'participant.joined', 'participant.left'],
    run: async (s) => s.joinAndLeave(await s.room()),
  },
  'live_stream.started': {
    description: 'Creates a live stream (with its room and chat), then starts it.',
    events: [...STREAM, 'live_stream.started'],
    run: async (s) => void (await s.transition(await s.liveStream(), 'start')),
  },
  'live_stream.ended': {
    description: 'Creates a live stream (with its room and chat), starts it, then ends it.',
    events: [...STREAM, 'live_stream.started', 'live_stream.ended'],
    run: async (s) => void (await s.transition(await s.transition(await s.liveStream(), 'start'), 'end')),
  },
  'live_stream.host_joined': {
    description: `Creates a live stream (with its room and chat); ${alice} is made its HOST (and joins its chat).`,
    events: [...STREAM, 'member.added', 'live_stream.host_joined'],
    run: async (s) => s.host(await s.liveStream()),
  },
  'live_stream.viewer_joined': {
    description: `Creates a live stream (with its room and chat); ${bob} is given a viewer credential (and joins its chat).`,
    events: [...STREAM, 'member.added', 'live_stream.viewer_joined'],
    run: async (s) => s.viewer(await s.liveStream()),
  },
};
