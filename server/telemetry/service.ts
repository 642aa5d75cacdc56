import { telemetryEvents } from '../../db/schema/telemetry.js';
import type { EnvironmentScope } from '../../db/scope.js';
import { scopeValues } from '../../db/scope.js';
import type { Infrastructure } from '../context.js';
import { keepNewest } from '../shared/scoped-page.js';

/** Per project environment, older events beyond this many are dropped. */
export const TELEMETRY_RETENTION_EVENTS = 100_000;
/** How many inserted events between two retention checks (the check costs a count). */
const PRUNE_EVERY = 1_000;

export interface TelemetrySource extends EnvironmentScope {
  roomId: string;
  identity: string;
}

export function createTelemetryService({ store, clock, ids, events }: Infrastructure) {
  let sincePrune = 0;

  return {
    /** Stores the batch tagged with the token's project, environment, room and identity. */
    async record(
      source: TelemetrySource,
      batch: { type: string; at?: string; data?: Record<string, unknown> }[],
    ): Promise<number> {
      const receivedAt = clock.now();
      await store.transaction(async (tx) => {
        for (const event of batch) {
          await tx.insert(telemetryEvents).values({
            id: ids.next('evt'),
            ...scopeValues(source),
            roomId: source.roomId,
            identity: source.identity,
            type: event.type,
            occurredAt: event.at ? Date.parse(event.at) : receivedAt,
            receivedAt,
            data: event.data ?? null,
          });
        }
      });
      events.emit('telemetry.accepted', { ...scopeValues(source), count: batch.length });
      sincePrune += batch.length;
      if (sincePrune >= PRUNE_EVERY) {
        sincePrune = 0;
        await store.transaction((tx) => keepNewest(tx, telemetryEvents, source, TELEMETRY_RETENTION_EVENTS));
      }
      return batch.length;
    },
  };
}

export type TelemetryService = ReturnType<typeof createTelemetryService>;
