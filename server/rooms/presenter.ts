import type * as z from 'zod';
import { toIso } from '../clock.js';
import { type Member, viewOf } from '../rtc/participant.js';
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
