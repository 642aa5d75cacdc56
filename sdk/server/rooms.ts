import { paginate } from '../paginate.js';
import { path, type Transport } from '../transport.js';
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
    return this.transport.request({ method: 'POST', path: path`/v1/rooms/${roomId}/rtc-tokens`, body: input });
  }
}

/** Rooms of the API key's environment. */
export class RoomsResource {
  readonly rtcTokens: RtcTokensResource;

  constructor(private readonly transport: Transport) {
    this.rtcTokens = new RtcTokensResource(transport);
  }

  create(input: CreateRoomInput): Promise<Room> {
    return this.transport.request({ method: 'POST', path: path`/v1/rooms`, body: input });
  }

  /** One page, newest first; pass its `nextCursor` as `cursor` for the next. */
  list(query: PageQuery = {}): Promise<RoomPage> {
    return this.transport.request({ method: 'GET', path: path`/v1/rooms`, query });
  }

  all(query: Omit<PageQuery, 'cursor'> = {}): AsyncGenerator<Room, void, undefined> {
    return paginate((cursor) => this.list({ ...query, cursor }));
  }

  get(roomId: string): Promise<Room> {
    return this.transport.request({ method: 'GET', path: path`/v1/rooms/${roomId}` });
  }

  /** Connected participants are disconnected; the name is free again. */
  delete(roomId: string): Promise<void> {
    return this.transport.request({ method: 'DELETE', path: path`/v1/rooms/${roomId}` });
  }

  /** Who is connected to the room's signaling socket now. */
  participants(roomId: string): Promise<ParticipantList> {
    return this.transport.request({ method: 'GET', path: path`/v1/rooms/${roomId}/participants` });
  }
}
