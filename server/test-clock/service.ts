import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { environmentClocks } from '../../db/schema/test-tools.js';
import { webhookDeliveries } from '../../db/schema/webhooks.js';
import { type EnvironmentScope, inScope, scopeValues } from '../../db/scope.js';
import type { Actor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { Infrastructure } from '../context.js';
import { validationFailed } from '../errors.js';
import { refuseProduction } from '../testing-tools.js';
import type { EnvironmentClocks } from './clocks.js';

/** How far ahead a clock may run in all: far past any schedule worth testing, far from the end of `Date`. */
export const MAX_CLOCK_OFFSET_MS = 10 * 366 * 24 * 3600 * 1000;

export interface EnvironmentClock {
  scope: EnvironmentScope;
  /** The environment's time now. */
  now: number;
  offsetMs: number;
  advancedAt: number | null;
}

const refuseProductionClock = (scope: EnvironmentScope, what: string) =>
  refuseProduction(
    scope,
    `The production environment’s clock cannot be ${what}: it is always real time. Use development or staging.`,
  );

/**
 * The test clock of a development or staging environment: advanced by hand, so that what waits on time there
 * (webhook retries, token expiry, typing indicators, metric windows) happens at once; reset to real time. It only
 * moves forward while advanced. Each change is audited and then told to every node (`environment.clock_changed`).
 */
export function createTestClockService(
  { store, clock, events }: Infrastructure,
  audit: AuditService,
  clocks: EnvironmentClocks,
) {
  return {
    async read(scope: EnvironmentScope): Promise<EnvironmentClock> {
      const { offsetMs, advancedAt } = await clocks.state(scope);
      return { scope, now: clock.now() + offsetMs, offsetMs, advancedAt };
    },

    async advance(actor: Actor, scope: EnvironmentScope, seconds: number): Promise<EnvironmentClock> {
      refuseProductionClock(scope, 'advanced');
      const now = clock.now();
      const advancedByMs = seconds * 1000;
      const offsetMs = await store.transaction(async (tx) => {
        const [row] = await tx.select().from(environmentClocks).where(inScope(environmentClocks, scope)).limit(1);
        const offset = (row?.offsetMs ?? 0) + advancedByMs;
        if (offset > MAX_CLOCK_OFFSET_MS) {
          throw validationFailed(
            `The clock would run more than 10 years ahead of real time (it is ${Math.floor((row?.offsetMs ?? 0) / 1000)} s ahead): reset it first.`,
            [{ path: 'seconds', message: 'takes the clock more than 10 years ahead' }],
          );
        }
        await tx
          .insert(environmentClocks)
          .values({ ...scopeValues(scope), offsetMs: offset, updatedAt: now })
          .onConflictDoUpdate({
            target: [environmentClocks.projectId, environmentClocks.environment],
            set: { offsetMs: offset, updatedAt: now },
          });
        await audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'environment.clock_advanced',
          target: { type: 'environment', id: scope.environment },
          environment: scope.environment,
          details: { seconds, offsetMs: offset },
        });
        return offset;
      });
      // After the commit: every node forgets its copy, wakes its webhook worker and lets lapsed typing go.
      events.emit('environment.clock_changed', { ...scope, offsetMs, advancedByMs });
      return { scope, now: now + offsetMs, offsetMs, advancedAt: now };
    },

    /**
     * Back to real time. What was stamped in the environment's future stays so (messages, webhook attempts, metric
     * minutes); pending webhook retries keep their place in the schedule: they move back by the offset, so a retry
     * due in 10 s of the environment's time is due in 10 s of real time.
     */
    async reset(actor: Actor, scope: EnvironmentScope): Promise<EnvironmentClock> {
      refuseProductionClock(scope, 'reset');
      await store.transaction(async (tx) => {
        const [row] = await tx.select().from(environmentClocks).where(inScope(environmentClocks, scope)).limit(1);
        const offsetMs = row?.offsetMs ?? 0;
        if (row) {
          await tx.delete(environmentClocks).where(inScope(environmentClocks, scope));
          await tx
            .update(webhookDeliveries)
            .set({ nextAttemptAt: sql`${webhookDeliveries.nextAttemptAt} - ${offsetMs}` })
            .where(
              inScope(
                webhookDeliveries,
                scope,
                and(eq(webhookDeliveries.status, 'PENDING'), isNotNull(webhookDeliveries.nextAttemptAt)),
              ),
            );
        }
        await audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'environment.clock_reset',
          target: { type: 'environment', id: scope.environment },
          environment: scope.environment,
          details: { offsetMs },
        });
      });
      events.emit('environment.clock_changed', { ...scope, offsetMs: 0, advancedByMs: 0 });
      return { scope, now: clock.now(), offsetMs: 0, advancedAt: null };
    },
  };
}

export type TestClockService = ReturnType<typeof createTestClockService>;
