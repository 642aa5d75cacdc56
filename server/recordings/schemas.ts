import * as z from 'zod';
import { environmentSchema } from '../environments.js';
import { timestampSchema } from '../shared/schemas.js';

/** A recording's limits by default and at most: past either it ends by itself (`size_limit`, `duration_limit`). */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const MAX_MAX_BYTES = 100 * 1024 * 1024;
export const DEFAULT_MAX_DURATION_SECONDS = 15 * 60;
export const MAX_MAX_DURATION_SECONDS = 24 * 60 * 60;

export const RECORDING_STATES = ['recording', 'stopped'] as const;
export const END_REASONS = ['stopped', 'size_limit', 'duration_limit'] as const;
export type RecordingState = (typeof RECORDING_STATES)[number];
export type EndReason = (typeof END_REASONS)[number];

export const startRecordingBody = z.lazy(() =>
  z
    .strictObject({
      maxBytes: z
        .int()
        .min(1024)
        .max(MAX_MAX_BYTES)
        .optional()
        .default(DEFAULT_MAX_BYTES)
        .meta({
          description:
            'The recorded entries’ size (their JSON) at which the recording ends by itself (`size_limit`): 1 KiB to ' +
            '100 MiB, default 10 MiB. The entry that crosses it is the last one kept.',
        }),
      maxDurationSeconds: z
        .int()
        .min(1)
        .max(MAX_MAX_DURATION_SECONDS)
        .optional()
        .default(DEFAULT_MAX_DURATION_SECONDS)
        .meta({
          description: 'How long it may run before it ends by itself (`duration_limit`): 1 s to 24 h, default 15 min.',
        }),
    })
    .meta({ id: 'StartRecordingRequest' }),
);
export type StartRecordingInput = z.output<typeof startRecordingBody>;

export const recordingSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'rec_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      environment: environmentSchema,
      state: z.enum(RECORDING_STATES).meta({ description: '`recording` until stopped or a limit ends it.' }),
      endReason: z.enum(END_REASONS).nullable().meta({
        description:
          'Why it ended: `stopped` (asked), `size_limit` or `duration_limit` (a limit was reached); null while recording.',
      }),
      maxBytes: z.int(),
      maxDurationSeconds: z.int(),
      bytes: z.int().meta({ description: 'The size of what it recorded so far (its entries’ JSON).' }),
      entries: z.int().meta({ description: 'How many exchanges, frames, socket openings and closings it took.' }),
      startedAt: timestampSchema,
      endedAt: timestampSchema.nullable(),
    })
    .meta({ id: 'Recording' }),
);

/** A HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/), described by its outline only. */
export const harSchema = z.lazy(() =>
  z
    .looseObject({
      log: z.looseObject({
        version: z.literal('1.2'),
        creator: z.object({ name: z.string(), version: z.string() }),
        entries: z.array(z.record(z.string(), z.unknown())),
      }),
    })
    .meta({
      id: 'HarFile',
      description:
        'HAR 1.2: REST exchanges as entries; each socket as one entry with `_webSocketMessages` (as Chrome DevTools ' +
        'writes them); webhook attempts as entries with `_switchboardKind: "webhook"`; every entry’s test-clock time ' +
        'in `_testClock`. Secrets are replaced by `[redacted]`.',
    }),
);
