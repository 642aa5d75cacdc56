import type * as z from 'zod';
import { toIso } from '../clock.js';
import type { ParticipantMediaStats } from '../media/protocol.js';
import { type Member, viewOf } from '../rtc/participant.js';
import type { roomMediaSchema } from './media-schemas.js';
import type { participantSchema, roomSchema } from './schemas.js';
import type { RoomRow } from './service.js';

export const presentRoom = (room: RoomRow, participantCount: number): z.input<typeof roomSchema> => ({
  id: room.id,
  name: room.name,
  environment: room.environment,
  maxParticipants: room.maxParticipants,
  metadata: room.metadata,
  participantCount,
  createdAt: toIso(room.createdAt),
});

export const presentParticipant = (participant: Member): z.input<typeof participantSchema> => viewOf(participant);

type RoomMedia = { mode: 'sfu' | 'mesh'; participants: ParticipantMediaStats[] };

/** Loss over what was expected: received and lost for a published track; sent (lost included) for a subscribed one. */
const lossPercent = ({ direction, packets, packetsLost }: ParticipantMediaStats['tracks'][number]) => {
  const expected = direction === 'publish' ? packets + packetsLost : Math.max(packets, packetsLost);
  return expected === 0 ? 0 : Math.round((packetsLost / expected) * 10_000) / 100;
};

export const presentRoomMedia = ({ mode, participants }: RoomMedia): z.input<typeof roomMediaSchema> => ({
  mode,
  participants: participants.map((p) => ({
    identity: p.identity,
    connectionId: p.conn,
    tracks: p.tracks.map((track) => ({ ...track, lossPercent: lossPercent(track) })),
  })),
});
