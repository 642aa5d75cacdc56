import { paginate } from '../paginate.js';
import type { Transport } from '../transport.js';
import type {
  CreateRoomInput,
  CreateRtcTokenInput,
  PageQuery,
  ParticipantList,
  Room,
  RoomPage,
  RtcToken,
} from '../types.js';

/** Mints RTC tokens for one room: `rooms.rtcTokens.create(roomId, {identity})`. */
export class RtcTokensResource {
  constructor(private readonly transport: Transport) {}

  /** A JWT for one identity in the room; everything is allowed unless turned off. */
  create(roomId: string, input: CreateRtcTokenInput): Promise<RtcToken> {
    return this.transport.call('createRtcToken', { params: { roomId }, body: input });
  }
}

/** Rooms of the API key's environment. */
export class RoomsResource {
  readonly rtcTokens: RtcTokensResource;

  constructor(private readonly transport: Transport) {
    this.rtcTokens = new RtcTokensResource(transport);
  }

  create(input: CreateRoomInput): Promise<Room> {
    return this.transport.call('createRoom', { body: input });
  }

  /** One page, newest first; pass its `nextCursor` as `cursor` for the next. */
  list(query: PageQuery = {}): Promise<RoomPage> {
    return this.transport.call('listRooms', { query });
  }

  all(query: Omit<PageQuery, 'cursor'> = {}): AsyncGenerator<Room, void, undefined> {
    return paginate((cursor) => this.list({ ...query, cursor }));
  }

  get(roomId: string): Promise<Room> {
    return this.transport.call('getRoom', { params: { id: roomId } });
  }

  /** Connected participants are disconnected; the name is free again. */
  delete(roomId: string): Promise<void> {
    return this.transport.call('deleteRoom', { params: { id: roomId } });
  }

  /** Who is connected to the room's signaling socket now. */
  participants(roomId: string): Promise<ParticipantList> {
    return this.transport.call('listParticipants', { params: { id: roomId } });
  }
}
