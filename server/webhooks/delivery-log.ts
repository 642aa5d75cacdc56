import { asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { type DeliveryStatus, webhookAttempts, webhookDeliveries } from '../../db/schema/webhooks.js';
import { type EnvironmentScope, inScope } from '../../db/scope.js';
import type { Infrastructure } from '../context.js';
import { notFound } from '../errors.js';
import { decodeCursor, toPage } from '../shared/pagination.js';
import { EVENT_CATALOGUE, type EventType } from './catalogue.js';
import { assertEnabled, findEndpoint } from './endpoint-lookup.js';
import type { AttemptRow, DeliveryQueue, DeliveryRow } from './queue.js';
import type { DeliveryWorker } from './worker.js';

export type DeliveryWithAttempts = { delivery: DeliveryRow; attempts: AttemptRow[] };

/** One delivery of one endpoint, in the scope. */
const deliveryOf = (scope: EnvironmentScope, webhookId: string, deliveryId: string) =>
  inScope(webhookDeliveries, scope, eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, webhookId));

const deliveryNotFound = (webhookId: string, deliveryId: string) =>
  notFound('SERVICE_WEBHOOK_DELIVERY_NOT_FOUND', `No delivery ${deliveryId} of webhook endpoint ${webhookId}.`);

/** What users see of deliveries and may ask of them: the log, a resend, a test event. */
export function createDeliveryLog({ store }: Infrastructure, queue: DeliveryQueue, worker: DeliveryWorker) {
  const { db } = store;
  async function attemptsOf(deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
    const byDelivery = new Map<string, AttemptRow[]>(deliveryIds.map((id) => [id, []]));
    if (deliveryIds.length === 0) return byDelivery;
    const rows = await db
      .select()
      .from(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, deliveryIds))
      .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.number));
    for (const row of rows) byDelivery.get(row.deliveryId)?.push(row);
    return byDelivery;
  }

  async function findDelivery(scope: EnvironmentScope, webhookId: string, deliveryId: string): Promise<DeliveryRow> {
    await findEndpoint(db, scope, webhookId);
    const [delivery] = await db
      .select()
      .from(webhookDeliveries)
      .where(deliveryOf(scope, webhookId, deliveryId))
      .limit(1);
    if (!delivery) throw deliveryNotFound(webhookId, deliveryId);
    return delivery;
  }

  const withAttempts = async (delivery: DeliveryRow): Promise<DeliveryWithAttempts> => ({
    delivery,
    attempts: (await attemptsOf([delivery.id])).get(delivery.id) ?? [],
  });

  return {
    /** The endpoint's deliveries, newest first, each with its attempts. */
    async listDeliveries(
      scope: EnvironmentScope,
      webhookId: string,
      query: { limit: number; cursor?: string; status?: DeliveryStatus; eventType?: string },
    ): Promise<{ rows: DeliveryWithAttempts[]; nextCursor: string | null }> {
      await findEndpoint(db, scope, webhookId);
      const before = decodeCursor(query.cursor);
      const rows = await db
        .select()
        .from(webhookDeliveries)
        .where(
          inScope(
            webhookDeliveries,
            scope,
            eq(webhookDeliveries.endpointId, webhookId),
            before ? lt(webhookDeliveries.id, before) : undefined,
            query.status ? eq(webhookDeliveries.status, query.status) : undefined,
            query.eventType ? eq(webhookDeliveries.eventType, query.eventType) : undefined,
          ),
        )
        .orderBy(desc(webhookDeliveries.id))
        .limit(query.limit + 1);
      const page = toPage(rows, query.limit);
      const attempts = await attemptsOf(page.rows.map((row) => row.id));
      return {
        rows: page.rows.map((delivery) => ({ delivery, attempts: attempts.get(delivery.id) ?? [] })),
        nextCursor: page.nextCursor,
      };
    },

    async getDelivery(scope: EnvironmentScope, webhookId: string, deliveryId: string): Promise<DeliveryWithAttempts> {
      return withAttempts(await findDelivery(scope, webhookId, deliveryId));
    },

    /** The delivery's row with its payload: the body every attempt sends. */
    getDeliveryRow: (scope: EnvironmentScope, webhookId: string, deliveryId: string): Promise<DeliveryRow> =>
      findDelivery(scope, webhookId, deliveryId),

    /**
     * Queues one more attempt of a delivery, due now, whatever its status: same event id, same body,
     * a fresh signature. If it fails, the usual rule applies: a retry while fewer than 7 attempts
     * have been made, else FAILED. Asked while an attempt is in flight, it follows that attempt
     * (counting `resends` is what tells the recording of that attempt not to overwrite it).
     */
    async resend(scope: EnvironmentScope, webhookId: string, deliveryId: string): Promise<DeliveryWithAttempts> {
      const now = await queue.environmentNow(scope);
      const delivery = await store.transaction(async (tx) => {
        assertEnabled(await findEndpoint(tx, scope, webhookId));
        const [row] = await tx
          .update(webhookDeliveries)
          .set({
            status: 'PENDING',
            nextAttemptAt: now,
            resends: sql`${webhookDeliveries.resends} + 1`,
            updatedAt: now,
          })
          .where(deliveryOf(scope, webhookId, deliveryId))
          .returning();
        if (!row) throw deliveryNotFound(webhookId, deliveryId);
        return row;
      });
      worker.kick();
      return withAttempts(delivery);
    },

    /** Queues a new event of `type` carrying the catalogue's example data, to this endpoint only. */
    async sendTest(scope: EnvironmentScope, webhookId: string, type: EventType): Promise<DeliveryWithAttempts> {
      // One transaction: an endpoint disabled meanwhile gets no delivery.
      const delivery = await store.transaction(async (tx) => {
        const endpoint = await findEndpoint(tx, scope, webhookId);
        assertEnabled(endpoint);
        return queue.enqueueFor(endpoint, type, EVENT_CATALOGUE[type].example);
      });
      worker.kick();
      return { delivery, attempts: [] };
    },
  };
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;
