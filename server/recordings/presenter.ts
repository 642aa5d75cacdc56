import type * as z from 'zod';
import { toIso, toIsoOrNull } from '../clock.js';
import type { EndReason, RecordingState, recordingSchema } from './schemas.js';
import type { RecordingRow } from './service.js';

export const presentRecording = (row: RecordingRow) =>
  ({
    id: row.id,
    environment: row.environment,
    // Only the service writes these columns, from the schema's enums.
    state: row.state as RecordingState,
    endReason: row.endReason as EndReason | null,
    maxBytes: row.maxBytes,
    maxDurationSeconds: Math.round(row.maxDurationMs / 1000),
    bytes: row.bytes,
    entries: row.entries,
    startedAt: toIso(row.startedAt),
    endedAt: toIsoOrNull(row.endedAt),
  }) satisfies z.input<typeof recordingSchema>;
