import { count, eq } from 'drizzle-orm';
import { prepareOnFirstUse } from '../../db/prepare-on-first-use.js';
import { webhookDeliveries } from '../../db/schema/webhooks.js';
import type { Queries } from '../../db/store.js';

/**
 * Counts the deliveries waiting for an attempt (a first one or a retry), in the whole store: every node on a database
 * counts the same queue. Read from the `(status, next_attempt_at)` index; prepared once (a scrape asks every time).
 */
export function pendingDeliveriesCounter(db: Queries): () => Promise<number> {
  const pending = prepareOnFirstUse(() =>
    db.select({ pending: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'PENDING')).prepare(),
  );
  return async () => {
    const [row] = await pending.execute();
    return row.pending;
  };
}
