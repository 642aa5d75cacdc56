import * as z from 'zod';
import { environmentSchema } from '../environments.js';
import { timestampSchema } from '../shared/schemas.js';

/** One advance at most: 400 days, enough to pass a yearly renewal or a 30-day retention with room to spare. */
export const MAX_ADVANCE_SECONDS = 400 * 24 * 3600;

export const advanceClockBody = z.lazy(() =>
  z
    .strictObject({
      seconds: z
        .int('must be a whole number of seconds')
        .min(1)
        .max(MAX_ADVANCE_SECONDS, `must be at most ${MAX_ADVANCE_SECONDS} (400 days)`)
        .meta({
          description: 'How far to move the clock forward, in seconds (1 to 34,560,000: 400 days).',
          example: 7200,
        }),
    })
    .meta({ id: 'AdvanceClockRequest' }),
);
export type AdvanceClockInput = z.infer<typeof advanceClockBody>;

export const environmentClockSchema = z.lazy(() =>
  z
    .object({
      environment: environmentSchema,
      now: timestampSchema.meta({ description: 'The environment’s time now: real time plus `offsetMs`.' }),
      offsetMs: z.int().min(0).meta({ description: 'How far ahead of real time the clock runs; 0 for real time.' }),
      advancedAt: timestampSchema
        .nullable()
        .meta({ description: 'When the clock was last advanced (real time); null when it runs on real time.' }),
    })
    .meta({ id: 'EnvironmentClock' }),
);
