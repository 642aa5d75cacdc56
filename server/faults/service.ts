import { eq, lte } from 'drizzle-orm';
import { environmentFaults } from '../../db/schema/test-tools.js';
import { type EnvironmentScope, inScope, scopeValues } from '../../db/scope.js';
import type { Actor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { Infrastructure } from '../context.js';
import { notFound, ServiceError } from '../errors.js';
import { refuseProduction } from '../testing-tools.js';
import { CLOSE_FAULT_INJECTED, FAULT_INJECTED_REASON } from './close.js';
import type { FaultRow, FaultRules } from './rules.js';
import { type CreateFaultInput, DEFAULT_OUT_OF_ORDER_MS, type SOCKET_KINDS } from './schemas.js';

/** What answers a REST call of an environment made unavailable: retry after this. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** The hubs whose sockets a drop closes: each closes the share of this node's that the draw picks. */
interface SocketHub {
  dropShare(scope: EnvironmentScope, drawn: () => boolean, code: number, reason: string): number;
}

type SocketKind = (typeof SOCKET_KINDS)[number];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const refuseProductionFaults = (scope: EnvironmentScope) =>
  refuseProduction(
    scope,
    'Faults are never injected into production: its traffic is your live app’s. Use development or staging.',
  );

/**
 * Faults injected into an environment's traffic, for testing how an app copes (issue 26): rules with a share and an
 * expiry, stored in `environment_faults`, each change audited and told to every node after its commit. What they do
 * happens where the traffic is: the webhook worker (server/webhooks/worker.ts) and the REST routes
 * (`requestFault`, server/http/register-routes.ts), which read them through `rules`. Never production's.
 */
export function createFaultService(
  { store, clock, ids, events, cluster }: Infrastructure,
  audit: AuditService,
  rules: FaultRules,
  hubs: { realtime: SocketHub; signaling: SocketHub },
) {
  const changed = (scope: EnvironmentScope, change: 'added' | 'removed', faults: FaultRow[]) => {
    if (faults.length > 0) events.emit('environment.faults_changed', { ...scope, change, faults });
  };

  /** Closes the share of this node's sockets of the scope: both hubs, or one. */
  function dropHere(scope: EnvironmentScope, percent: number, kind: SocketKind): number {
    const drawn = () => rules.drawn(percent);
    let closed = 0;
    if (kind !== 'signaling')
      closed += hubs.realtime.dropShare(scope, drawn, CLOSE_FAULT_INJECTED, FAULT_INJECTED_REASON);
    if (kind !== 'realtime')
      closed += hubs.signaling.dropShare(scope, drawn, CLOSE_FAULT_INJECTED, FAULT_INJECTED_REASON);
    return closed;
  }
  // The node that was asked closed its own already (to count them); every other closes its share of its own.
  events.on('environment.sockets_dropped', ({ node, percent, kind, ...scope }) => {
    if (node !== cluster.nodeId) dropHere(scope, percent, kind);
  });

  async function removeWhere(actor: Actor, scope: EnvironmentScope, faultId?: string): Promise<FaultRow[]> {
    const now = clock.now();
    const removed = await store.transaction(async (tx) => {
      const gone = await tx
        .delete(environmentFaults)
        .where(inScope(environmentFaults, scope, faultId === undefined ? undefined : eq(environmentFaults.id, faultId)))
        .returning();
      // Expired ones go without a word: they had stopped applying already.
      const active = gone.filter((row) => row.expiresAt > now);
      if (faultId !== undefined && active.length === 0) {
        throw notFound('SERVICE_FAULT_NOT_FOUND', `No active fault ${faultId} in ${scope.environment}.`);
      }
      if (active.length > 0) {
        await audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'environment.fault_removed',
          target: { type: 'environment', id: scope.environment },
          environment: scope.environment,
          details: { faults: active.map(({ id, kind }) => ({ id, kind })) },
        });
      }
      return active;
    });
    changed(scope, 'removed', removed);
    return removed;
  }

  return {
    /** The environment's unexpired faults, newest first (production has none). */
    async list(scope: EnvironmentScope): Promise<readonly FaultRow[]> {
      return rules.of(scope);
    },

    async add(actor: Actor, scope: EnvironmentScope, input: CreateFaultInput): Promise<FaultRow> {
      refuseProductionFaults(scope);
      const now = clock.now();
      const row: FaultRow = {
        id: ids.next('flt'),
        ...scopeValues(scope),
        kind: input.kind,
        percent: input.percent,
        delayMs: input.delayMs ?? (input.kind === 'webhook.out_of_order' ? DEFAULT_OUT_OF_ORDER_MS : null),
        createdAt: now,
        expiresAt: now + input.expiresInSeconds * 1000,
      };
      await store.transaction(async (tx) => {
        // Pruned here, where the scope is written anyway: expired rules are read by no one.
        await tx
          .delete(environmentFaults)
          .where(inScope(environmentFaults, scope, lte(environmentFaults.expiresAt, now)));
        await tx.insert(environmentFaults).values(row);
        await audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'environment.fault_added',
          target: { type: 'environment', id: scope.environment },
          environment: scope.environment,
          details: {
            faultId: row.id,
            kind: row.kind,
            percent: row.percent,
            delayMs: row.delayMs,
            expiresAt: new Date(row.expiresAt).toISOString(),
          },
        });
      });
      changed(scope, 'added', [row]);
      return row;
    },

    /** Ends one fault before it expires. */
    async remove(actor: Actor, scope: EnvironmentScope, faultId: string): Promise<void> {
      refuseProductionFaults(scope);
      await removeWhere(actor, scope, faultId);
    },

    /** Ends every fault of the environment; answers how many were in force. */
    async clear(actor: Actor, scope: EnvironmentScope): Promise<number> {
      refuseProductionFaults(scope);
      return (await removeWhere(actor, scope)).length;
    },

    /**
     * Closes a share of the environment's realtime and signaling sockets now, on every node, with 4206: answers how
     * many this node closed (the others close theirs when the bus brings them the request).
     */
    async dropSockets(
      actor: Actor,
      scope: EnvironmentScope,
      input: { percent: number; kind: SocketKind },
    ): Promise<number> {
      refuseProductionFaults(scope);
      await store.transaction((tx) =>
        audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'environment.sockets_dropped',
          target: { type: 'environment', id: scope.environment },
          environment: scope.environment,
          details: { percent: input.percent, kind: input.kind },
        }),
      );
      const closed = dropHere(scope, input.percent, input.kind);
      events.emit('environment.sockets_dropped', { ...scope, ...input, node: cluster.nodeId });
      return closed;
    },

    /**
     * What the environment's faults do to a REST call made with its keys or tokens, before the handler runs: waits
     * (`api.latency`), then may refuse it (`api.unavailable`: 503 with `Retry-After`). Undefined, not a promise, when
     * there is nothing to do and the faults were in memory: the common case costs a map lookup.
     */
    requestFault(scope: EnvironmentScope): Promise<void> | undefined {
      const known = rules.of(scope);
      if (known instanceof Promise) return known.then(applyToRequest);
      return known.length === 0 ? undefined : applyToRequest(known);
    },
  };

  async function applyToRequest(active: readonly FaultRow[]): Promise<void> {
    if (active.length === 0) return;
    const latency = rules.pick(active, 'api.latency');
    if (latency?.delayMs) await sleep(latency.delayMs);
    if (rules.pick(active, 'api.unavailable')) {
      throw new ServiceError(
        'SERVICE_FAULT_INJECTED',
        'Injected fault (api.unavailable): this environment’s API is made unavailable for testing; retry later.',
        { headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } },
      );
    }
  }
}

export type FaultService = ReturnType<typeof createFaultService>;
