import { eq } from 'drizzle-orm';
import type { Environment } from '../../db/schema/environment.js';
import { webhookEndpoints } from '../../db/schema/webhooks.js';
import { type EnvironmentScope, inScope, scopeValues } from '../../db/scope.js';
import type { Actor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { Infrastructure } from '../context.js';
import { sealedRow } from '../data-archive/sealed-row.js';
import { ServiceError } from '../errors.js';
import type { FaultRules } from '../faults/rules.js';
import type { RecordingService } from '../recordings/service.js';
import type { EnvironmentClocks } from '../test-clock/clocks.js';
import { createDeliveryLog, type DeliveryLog } from './delivery-log.js';
import { findEndpoint, webhookNotFound } from './endpoint-lookup.js';
import { createDeliveryQueue, type EndpointRow } from './queue.js';
import { generateSigningSecret } from './signature.js';
import { targetRefusal } from './target.js';
import { createDeliveryWorker } from './worker.js';

export interface WebhookPatch {
  url?: string;
  events?: string[];
  enabled?: boolean;
}

/**
 * Webhook endpoints (environment-scoped: every read and write goes through `inScope`), their
 * delivery log, and the delivery worker that `startServer` starts and stops.
 */
export function createWebhookService(
  infra: Infrastructure,
  audit: AuditService,
  clocks: EnvironmentClocks,
  faults: FaultRules,
  recordings: RecordingService,
) {
  const { store, clock, ids, mode } = infra;
  const { db } = store;
  // The key ring's box: the data folder's key file on SQLite, the key derived from the secret key on PostgreSQL.
  const secrets = infra.keys.webhookSecrets;
  const queue = createDeliveryQueue(infra, audit, clocks);
  const worker = createDeliveryWorker(infra, queue, secrets, faults, recordings);
  const deliveryLog: DeliveryLog = createDeliveryLog(infra, queue, worker);

  function assertTarget(url: string): void {
    const refusal = targetRefusal(url, mode);
    if (refusal) throw new ServiceError('SERVICE_WEBHOOK_TARGET_REFUSED', `Webhook URL refused: ${refusal}.`);
  }

  return {
    worker,

    /** The signing secret is returned here only; the row keeps it sealed (secret-box.ts), with its key's id. */
    async register(
      actor: Actor,
      projectId: string,
      input: { url: string; environment: Environment; events: string[]; secret?: string },
    ): Promise<{ row: EndpointRow; secret: string }> {
      assertTarget(input.url);
      const now = clock.now();
      const id = ids.next('wh');
      // A secret chosen in advance (a seed's) or a new one.
      const secret = input.secret ?? generateSigningSecret();
      const row: EndpointRow = {
        id,
        ...scopeValues({ projectId, environment: input.environment }),
        url: input.url,
        events: input.events,
        ...sealedRow(secrets.seal(secret, id)),
        enabled: true,
        consecutiveFailures: 0,
        disabledAt: null,
        disabledReason: null,
        createdById: actor.id,
        createdAt: now,
        updatedAt: now,
      };
      await store.transaction(async (tx) => {
        await tx.insert(webhookEndpoints).values(row);
        await audit.record(tx, {
          projectId,
          actor,
          action: 'webhook.created',
          target: { type: 'webhook', id },
          environment: row.environment,
          details: { url: row.url, events: row.events },
        });
      });
      queue.forgetEndpoints(row);
      return { row, secret };
    },

    /** The endpoints of one environment, oldest first. */
    list(scope: EnvironmentScope): Promise<EndpointRow[]> {
      return db.select().from(webhookEndpoints).where(inScope(webhookEndpoints, scope)).orderBy(webhookEndpoints.id);
    },

    get(scope: EnvironmentScope, webhookId: string): Promise<EndpointRow> {
      return findEndpoint(db, scope, webhookId);
    },

    /**
     * Changes url, events or enabled. Disabling fails the endpoint's pending deliveries (retries stop);
     * re-enabling clears the failure count. A change that changes nothing is not audited.
     */
    async update(actor: Actor, scope: EnvironmentScope, webhookId: string, patch: WebhookPatch): Promise<EndpointRow> {
      if (patch.url !== undefined) assertTarget(patch.url);
      const now = clock.now();
      const updated = await store.transaction(async (tx) => {
        const before = await findEndpoint(tx, scope, webhookId);
        const changes: Partial<EndpointRow> = {};
        const details: Record<string, { from: unknown; to: unknown }> = {};
        if (patch.url !== undefined && patch.url !== before.url) {
          changes.url = patch.url;
          details.url = { from: before.url, to: patch.url };
        }
        if (patch.events !== undefined && patch.events.join() !== before.events.join()) {
          changes.events = patch.events;
          details.events = { from: before.events, to: patch.events };
        }
        if (patch.enabled !== undefined && patch.enabled !== before.enabled) {
          details.enabled = { from: before.enabled, to: patch.enabled };
          if (patch.enabled) {
            Object.assign(changes, { enabled: true, consecutiveFailures: 0, disabledAt: null, disabledReason: null });
          } else {
            const by = actor.type === 'user' ? actor.email : actor.type;
            Object.assign(changes, { enabled: false, disabledAt: now, disabledReason: `Disabled by ${by}.` });
            await queue.failPending(tx, webhookId, 'Endpoint disabled: retries stopped.', now);
          }
        }
        if (Object.keys(details).length === 0) return before;
        const [after] = await tx
          .update(webhookEndpoints)
          .set({ ...changes, updatedAt: now })
          .where(inScope(webhookEndpoints, scope, eq(webhookEndpoints.id, webhookId)))
          .returning();
        await audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'webhook.updated',
          target: { type: 'webhook', id: webhookId },
          environment: scope.environment,
          details,
        });
        return after ?? before;
      });
      queue.forgetEndpoints(scope);
      return updated;
    },

    /** Deletes the endpoint with its deliveries and their log; attempts in flight are not recorded. */
    async delete(actor: Actor, scope: EnvironmentScope, webhookId: string): Promise<void> {
      await store.transaction(async (tx) => {
        const [deleted] = await tx
          .delete(webhookEndpoints)
          .where(inScope(webhookEndpoints, scope, eq(webhookEndpoints.id, webhookId)))
          .returning({ url: webhookEndpoints.url });
        if (!deleted) throw webhookNotFound(webhookId, scope);
        await audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'webhook.deleted',
          target: { type: 'webhook', id: webhookId },
          environment: scope.environment,
          details: { url: deleted.url },
        });
      });
      queue.forgetEndpoints(scope);
    },

    ...deliveryLog,
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
