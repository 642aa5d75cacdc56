import * as z from 'zod';

export const MAX_EVENTS_PER_REQUEST = 100;
export const MAX_EVENT_DATA_BYTES = 4096;

export const telemetryBody = z.lazy(() =>
  z
    .strictObject({
      events: z
        .array(
          z.strictObject({
            type: z
              .string()
              .min(1)
              .max(100)
              .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only')
              .meta({ example: 'connection.quality' }),
            at: z.iso
              .datetime({ offset: true })
              .optional()
              .meta({ description: 'When it happened (default: when received).' }),
            data: z
              .record(z.string(), z.unknown())
              .refine(
                (d) => JSON.stringify(d).length <= MAX_EVENT_DATA_BYTES,
                `must be at most ${MAX_EVENT_DATA_BYTES} bytes of JSON`,
              )
              .optional(),
          }),
        )
        .min(1)
        .max(MAX_EVENTS_PER_REQUEST),
    })
    .meta({ id: 'TelemetryBatch' }),
);

export const telemetryAcceptedSchema = z.lazy(() =>
  z.object({ accepted: z.number().int() }).meta({ id: 'TelemetryAccepted' }),
);
