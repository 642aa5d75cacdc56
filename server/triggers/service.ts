import type { EnvironmentScope } from '../../db/scope.js';
import type { Actor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { Infrastructure } from '../context.js';
import { ServiceError } from '../errors.js';
import { randomString } from '../ids.js';
import { refuseProduction } from '../testing-tools.js';
import { EVENT_TYPES, type EventType } from '../webhooks/catalogue.js';
import { RECIPES } from './recipes.js';
import type { TriggeredObjects } from './schemas.js';
import { type TriggerDependencies, triggerSteps } from './steps.js';

export interface TriggeredEvent {
  scope: EnvironmentScope;
  event: EventType;
  objects: TriggeredObjects;
  events: EventType[];
  triggeredAt: number;
}

/** Lowercase letters and digits: what tells one trigger's conversation, room or stream from another's. */
const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Triggers, like `stripe trigger`: an event of the catalogue made to happen in a development or staging environment,
 * by creating the objects it needs and acting on them through the domain services. Nothing is faked: the event (and
 * those of the objects made on the way) reaches webhooks, realtime sockets and the live event stream as any does.
 */
export function createTriggerService(
  { store, clock, cluster, logger }: Infrastructure,
  audit: AuditService,
  deps: TriggerDependencies,
) {
  /**
   * The trigger's audit entry. Its own transaction, after the steps: each step commits in its service's transaction
   * (as the API requests they stand for do), and only at the end is it known what the trigger made.
   */
  const record = (actor: Actor, scope: EnvironmentScope, details: Record<string, unknown>) =>
    store.transaction((tx) =>
      audit.record(tx, {
        projectId: scope.projectId,
        actor,
        action: 'environment.event_triggered',
        target: { type: 'environment', id: scope.environment },
        environment: scope.environment,
        details,
      }),
    );

  return {
    /** Every event that can be triggered (the whole catalogue), with what its trigger does. */
    list: () => EVENT_TYPES.map((event) => ({ event, ...RECIPES[event] })),

    async trigger(actor: Actor, scope: EnvironmentScope, event: EventType): Promise<TriggeredEvent> {
      refuseProduction(
        scope,
        'Events cannot be triggered in production: its data is your live app’s. Trigger in development or staging.',
      );
      const triggeredAt = clock.now();
      const suffix = randomString(8, SUFFIX_ALPHABET);
      const names = { label: `Triggered: ${event} (${suffix})`, slug: `triggered-${event}-${suffix}` };
      const objects: TriggeredObjects = {};
      const recipe = RECIPES[event];
      try {
        await recipe.run(triggerSteps(deps, cluster, scope, names, objects));
      } catch (err) {
        // What the steps before the failure made stays: the audit log says what it was.
        const failure = err instanceof ServiceError ? err.code : 'internal error';
        await record(actor, scope, { event, objects, failed: failure }).catch((auditErr: unknown) =>
          logger.error({ err: auditErr, ...scope, event }, 'could not audit a failed trigger'),
        );
        throw err;
      }
      await record(actor, scope, { event, objects, events: recipe.events });
      return { scope, event, objects, events: recipe.events, triggeredAt };
    },
  };
}

export type TriggerService = ReturnType<typeof createTriggerService>;
