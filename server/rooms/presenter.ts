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

/**
 * Loss over what was expected: packets received and lost. For a subscribed track too: sequence numbers are forwarded
 * as they came, so what the subscriber counts lost includes the gaps before the server, which were never sent.
 */
const lossPercent = ({ packets, packetsLost }: ParticipantMediaStats['tracks'][number]) => {
  const expected = packets + packetsLost;
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
