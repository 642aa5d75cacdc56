import * as z from 'zod';
import { environmentSchema } from '../environments.js';
import { pageQuery } from '../shared/pagination.js';
import { timestampSchema } from '../shared/schemas.js';

import { MAX_ROOM_PARTICIPANTS } from './limits.js';

export { MAX_ROOM_PARTICIPANTS };

const metadataSchema = z.lazy(() =>
  z
    .record(z.string(), z.unknown())
    .refine((value) => JSON.stringify(value).length <= 4096, 'must be at most 4 KB of JSON')
    .meta({ description: 'Your own data about the room, returned as given (at most 4 KB of JSON).' }),
);

export const createRoomBody = z.lazy(() =>
  z
    .strictObject({
      name: z
        .string()
        .trim()
        .min(1, 'must not be empty')
        .max(128, 'must be at most 128 characters')
        .meta({ description: 'Unique within the environment; the same name may exist in another environment.' }),
      maxParticipants: z
        .number()
        .int()
        .min(1)
        .max(MAX_ROOM_PARTICIPANTS)
        .optional()
        .meta({
          description: `Joins beyond this are refused. At most ${MAX_ROOM_PARTICIPANTS}: rooms are a peer-to-peer mesh.`,
        }),
      metadata: metadataSchema.optional(),
    })
    .meta({ id: 'CreateRoomRequest' }),
);

export const roomListQuery = pageQuery;

export const participantPermissionsSchema = z.lazy(() =>
  z
    .object({
      publish: z.boolean(),
      publishAudio: z.boolean(),
      publishVideo: z.boolean(),
      publishData: z.boolean(),
      subscribe: z.boolean(),
    })
    .meta({ id: 'RtcPermissions' }),
);

export const roomSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'room_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      name: z.string(),
      environment: environmentSchema,
      maxParticipants: z.number().int().nullable(),
      metadata: z.record(z.string(), z.unknown()).nullable(),
      participantCount: z
        .int()
        .min(0)
        .meta({ description: 'Participants connected to the signaling socket now.', example: 2 }),
      createdAt: timestampSchema,
    })
    .meta({ id: 'Room' }),
);

export const participantSchema = z.lazy(() =>
  z
    .object({
      identity: z.string(),
      name: z.string().nullable(),
      joinedAt: timestampSchema,
      permissions: participantPermissionsSchema,
    })
    .meta({ id: 'Participant' }),
);
