import type * as z from 'zod';
import { toIso } from '../clock.js';
import type { environmentSnapshotSchema, snapshotRestoreSchema } from './schemas.js';
import type { SnapshotRestore, SnapshotSummary } from './service.js';

export const presentSnapshot = (snapshot: SnapshotSummary) =>
  ({
    name: snapshot.name,
    environment: snapshot.environment,
    createdAt: toIso(snapshot.createdAt),
    createdBy: snapshot.createdBy,
    sizeBytes: snapshot.sizeBytes,
    counts: { ...snapshot.counts },
  }) satisfies z.input<typeof environmentSnapshotSchema>;

export const presentSnapshotRestore = ({ scope, name, restoredAt, removed, restored }: SnapshotRestore) =>
  ({
    environment: scope.environment,
    snapshot: name,
    restoredAt: toIso(restoredAt),
    removed: { ...removed },
    restored: { ...restored },
  }) satisfies z.input<typeof snapshotRestoreSchema>;
