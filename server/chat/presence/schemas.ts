import * as z from 'zod';
import { timestampSchema } from '../../shared/schemas.js';

export const presenceSchema = z.lazy(() =>
  z
    .object({
      userId: z.string(),
      online: z.boolean().meta({ description: 'Connected to /v1/realtime now.' }),
      connections: z.number().int(),
    })
    .meta({ id: 'Presence' }),
);

export const typingSchema = z.lazy(() =>
  z
    .object({
      userId: z.string(),
      expiresAt: timestampSchema.meta({ description: 'Stops by itself then, unless renewed.' }),
    })
    .meta({ id: 'Typing' }),
);
