import type * as z from 'zod';
import { toIso } from '../clock.js';
import type { FaultRow } from './rules.js';
import type { FaultKind, faultSchema } from './schemas.js';

export const presentFault = (row: FaultRow) =>
  ({
    id: row.id,
    environment: row.environment,
    // Only the service writes the column, from the schema's enum.
    kind: row.kind as FaultKind,
    percent: row.percent,
    delayMs: row.delayMs,
    createdAt: toIso(row.createdAt),
    expiresAt: toIso(row.expiresAt),
  }) satisfies z.input<typeof faultSchema>;
