/**
 * A room's media as the server sees it (the dashboard's room page): each participant's tracks with their counters,
 * read from the media process when media goes through the server (`rtc.media: 'sfu'`). With the mesh the server never
 * sees media: there is nothing to read. Types only from the media modules: they load with the media process's side.
 */
import type { EnvironmentScope } from '../../db/scope.js';
import type { RoomService } from '../rooms/service.js';
import type { ParticipantMediaStats } from './protocol.js';

/** Where the counters come from: the media signaling of a server that runs the SFU. */
export interface RoomMediaSource {
  roomStats(roomId: string): Promise<ParticipantMediaStats[]>;
}

export function createRoomMediaService(rooms: RoomService) {
  let source: RoomMediaSource | undefined;
  return {
    /** The runtime's media signaling, once it has started the media process. */
    attach(media: RoomMediaSource): void {
      source = media;
    },
    async of(scope: EnvironmentScope, roomId: string) {
      const room = await rooms.get(scope, roomId);
      if (!source) return { mode: 'mesh' as const, participants: [] };
      return { mode: 'sfu' as const, participants: await source.roomStats(room.id) };
    },
  };
}

export type RoomMediaService = ReturnType<typeof createRoomMediaService>;
