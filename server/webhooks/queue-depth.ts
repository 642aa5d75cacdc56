import { count, eq } from 'drizzle-orm';
import { webhookDeliveries } from '../../db/schema/webhooks.js';
import type { Queries } from '../../db/store.js';

/**
 * Deliveries waiting for an attempt (a first one or a retry), in the whole store: every node on a database counts the
 * same queue. Read from the `(status, next_attempt_at)` index.
 */
export async function countPendingDeliveries(db: Queries): Promise<number> {
  const [row] = await db
    .select({ pending: count() })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, 'PENDING'));
  return row.pending;
}
