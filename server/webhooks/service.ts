import { asc, desc, eq, inArray, lt } from 'drizzle-orm';
import type { Environment } from '../../db/schema/environment.js';
import { type DeliveryStatus, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/webhooks.js';
import { type EnvironmentScope, inScope, scopeValues } from '../../db/scope.js';
import type { Actor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { Executor, Infrastructure } from '../context.js';
import { conflict, notFound, ServiceError } from '../errors.js';
import { decodeCursor, toPage } from '../shared/pagination.js';
import { EVENT_CATALOGUE, type EventType } from './catalogue.js';
import { type AttemptRow, createDeliveryQueue, type DeliveryRow, type EndpointRow } from './queue.js';
import { createSecretBox } from './secret-box.js';
import { generateSigningSecret } from './signature.js';
import { targetRefusal } from './target.js';
import { createDeliveryWorker } from './worker.js';

export interface WebhookPatch {
  url?: string;
  events?: string[];
  enabled?: boolean;
}

export type DeliveryWithAttempts = { delivery: DeliveryRow; attempts: AttemptRow[] };

const webhookNotFound = (id: string, scope: EnvironmentScope) =>
  notFound('SERVICE_WEBHOOK_NOT_FOUND', `No webhook endpoint ${id} in ${scope.environment}.`);

/**
 * Webhook endpoints (environment-scoped: every read and write goes through `inScope`), their
 * delivery log, and the delivery worker that `startServer` starts and stops.
 */
export function createWebhookService(infra: Infrastructure, audit: AuditService) {
  const { db, clock, ids, mode } = infra;
  const secrets = createSecretBox(infra.dataDir);
  const queue = createDeliveryQueue(infra, audit);
  const worker = createDeliveryWorker(infra, queue, secrets);

  function assertTarget(url: string): void {
    const refusal = targetRefusal(url, mode);
    if (refusal) throw new ServiceError(400, 'SERVICE_WEBHOOK_TARGET_REFUSED', `Webhook URL refused: ${refusal}.`);
  }

  function findEndpoint(tx: Executor, scope: EnvironmentScope, webhookId: string): EndpointRow {
    const row = tx
      .select()
      .from(webhookEndpoints)
      .where(inScope(webhookEndpoints, scope, eq(webhookEndpoints.id, webhookId)))
      .get();
    if (!row) throw webhookNotFound(webhookId, scope);
    return row;
  }

  function assertEnabled(endpoint: EndpointRow): void {
    if (!endpoint.enabled) {
      throw conflict(
        'SERVICE_WEBHOOK_DISABLED',
        `Webhook endpoint ${endpoint.id} is disabled; re-enable it (PATCH {"enabled": true}) first.`,
      );
    }
  }

  function attemptsOf(deliveryIds: string[]): Map<string, AttemptRow[]> {
    const byDelivery = new Map<string, AttemptRow[]>(deliveryIds.map((id) => [id, []]));
    if (deliveryIds.length === 0) return byDelivery;
    const rows = db
      .select()
      .from(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, deliveryIds))
      .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.number))
      .all();
    for (const row of rows) byDelivery.get(row.deliveryId)?.push(row);
    return byDelivery;
  }

  const withAttempts = (delivery: DeliveryRow): DeliveryWithAttempts => ({
    delivery,
    attempts: attemptsOf([delivery.id]).get(delivery.id) ?? [],
  });

  return {
    worker,

    /** The signing secret is returned here only; the row keeps it sealed with the data folder's key. */
    register(
      actor: Actor,
      projectId: string,
      input: { url: string; environment: Environment; events: string[] },
    ): { row: EndpointRow; secret: string } {
      assertTarget(input.url);
      const now = clock.now();
      const id = ids.next('wh');
      const secret = generateSigningSecret();
      const row: EndpointRow = {
        id,
        ...scopeValues({ projectId, environment: input.environment }),
        url: input.url,
        events: input.events,
        secretCiphertext: secrets.seal(secret, id),
        enabled: true,
        consecutiveFailures: 0,
        disabledAt: null,
        disabledReason: null,
        createdById: actor.id,
        createdAt: now,
        updatedAt: now,
      };
      db.transaction((tx) => {
        tx.insert(webhookEndpoints).values(row).run();
        audit.record(tx, {
          projectId,
          actor,
          action: 'webhook.created',
          target: { type: 'webhook', id },
          environment: row.environment,
          details: { url: row.url, events: row.events },
        });
      });
      return { row, secret };
    },

    /** The endpoints of one environment, oldest first. */
    list(scope: EnvironmentScope): EndpointRow[] {
      return db
        .select()
        .from(webhookEndpoints)
        .where(inScope(webhookEndpoints, scope))
        .orderBy(webhookEndpoints.id)
        .all();
    },

    get(scope: EnvironmentScope, webhookId: string): EndpointRow {
      return findEndpoint(db, scope, webhookId);
    },

    /**
     * Changes url, events or enabled. Disabling fails the endpoint's pending deliveries (retries stop);
     * re-enabling clears the failure count. A change that changes nothing is not audited.
     */
    update(actor: Actor, scope: EnvironmentScope, webhookId: string, patch: WebhookPatch): EndpointRow {
      if (patch.url !== undefined) assertTarget(patch.url);
      const now = clock.now();
      return db.transaction((tx) => {
        const before = findEndpoint(tx, scope, webhookId);
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
            queue.failPending(tx, webhookId, 'Endpoint disabled: retries stopped.', now);
          }
        }
        if (Object.keys(details).length === 0) return before;
        const after = tx
          .update(webhookEndpoints)
          .set({ ...changes, updatedAt: now })
          .where(inScope(webhookEndpoints, scope, eq(webhookEndpoints.id, webhookId)))
          .returning()
          .get();
        audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'webhook.updated',
          target: { type: 'webhook', id: webhookId },
          environment: scope.environment,
          details,
        });
        return after ?? before;
      });
    },

    /** Deletes the endpoint with its deliveries and their log; attempts in flight are not recorded. */
    delete(actor: Actor, scope: EnvironmentScope, webhookId: string): void {
      db.transaction((tx) => {
        const deleted = tx
          .delete(webhookEndpoints)
          .where(inScope(webhookEndpoints, scope, eq(webhookEndpoints.id, webhookId)))
          .returning({ url: webhookEndpoints.url })
          .get();
        if (!deleted) throw webhookNotFound(webhookId, scope);
        audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'webhook.deleted',
          target: { type: 'webhook', id: webhookId },
          environment: scope.environment,
          details: { url: deleted.url },
        });
      });
    },

    /** The endpoint's deliveries, newest first, each with its attempts. */
    listDeliveries(
      scope: EnvironmentScope,
      webhookId: string,
      query: { limit: number; cursor?: string; status?: DeliveryStatus },
    ): { rows: DeliveryWithAttempts[]; nextCursor: string | null } {
      findEndpoint(db, scope, webhookId);
      const before = decodeCursor(query.cursor);
      const rows = db
        .select()
        .from(webhookDeliveries)
        .where(
          inScope(
            webhookDeliveries,
            scope,
            eq(webhookDeliveries.endpointId, webhookId),
            before ? lt(webhookDeliveries.id, before) : undefined,
            query.status ? eq(webhookDeliveries.status, query.status) : undefined,
          ),
        )
        .orderBy(desc(webhookDeliveries.id))
        .limit(query.limit + 1)
        .all();
      const page = toPage(rows, query.limit);
      const attempts = attemptsOf(page.rows.map((row) => row.id));
      return {
        rows: page.rows.map((delivery) => ({ delivery, attempts: attempts.get(delivery.id) ?? [] })),
        nextCursor: page.nextCursor,
      };
    },

    getDelivery(scope: EnvironmentScope, webhookId: string, deliveryId: string): DeliveryWithAttempts {
      findEndpoint(db, scope, webhookId);
      const delivery = db
        .select()
        .from(webhookDeliveries)
        .where(
          inScope(
            webhookDeliveries,
            scope,
            eq(webhookDeliveries.id, deliveryId),
            eq(webhookDeliveries.endpointId, webhookId),
          ),
        )
        .get();
      if (!delivery) {
        throw notFound(
          'SERVICE_WEBHOOK_DELIVERY_NOT_FOUND',
          `No delivery ${deliveryId} of webhook endpoint ${webhookId}.`,
        );
      }
      return withAttempts(delivery);
    },

    /**
     * Queues one more attempt of a delivery, due now, whatever its status: same event id, same body,
     * a fresh signature. If it fails, the usual rule applies: a retry while fewer than 7 attempts
     * have been made, else FAILED.
     */
    resend(scope: EnvironmentScope, webhookId: string, deliveryId: string): DeliveryWithAttempts {
      const now = clock.now();
      const delivery = db.transaction((tx) => {
        assertEnabled(findEndpoint(tx, scope, webhookId));
        const row = tx
          .update(webhookDeliveries)
          .set({ status: 'PENDING', nextAttemptAt: now, updatedAt: now })
          .where(
            inScope(
              webhookDeliveries,
              scope,
              eq(webhookDeliveries.id, deliveryId),
              eq(webhookDeliveries.endpointId, webhookId),
            ),
          )
          .returning()
          .get();
        if (!row) {
          throw notFound(
            'SERVICE_WEBHOOK_DELIVERY_NOT_FOUND',
            `No delivery ${deliveryId} of webhook endpoint ${webhookId}.`,
          );
        }
        return row;
      });
      worker.kick();
      return withAttempts(delivery);
    },

    /** Queues a new event of `type` carrying the catalogue's example data, to this endpoint only. */
    sendTest(scope: EnvironmentScope, webhookId: string, type: EventType): DeliveryWithAttempts {
      const endpoint = findEndpoint(db, scope, webhookId);
      assertEnabled(endpoint);
      const delivery = queue.enqueueFor(endpoint, type, EVENT_CATALOGUE[type].example);
      worker.kick();
      return { delivery, attempts: [] };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
