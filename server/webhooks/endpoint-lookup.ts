import { eq } from 'drizzle-orm';
import { webhookEndpoints } from '../../db/schema/webhooks.js';
import { type EnvironmentScope, inScope } from '../../db/scope.js';
import type { Queries } from '../../db/store.js';
import { conflict, notFound } from '../errors.js';
import type { EndpointRow } from './queue.js';

/** The endpoint with this id in the scope, or 404: an endpoint of another environment is not found. */
export async function findEndpoint(db: Queries, scope: EnvironmentScope, webhookId: string): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(inScope(webhookEndpoints, scope, eq(webhookEndpoints.id, webhookId)))
    .limit(1);
  if (!row) throw webhookNotFound(webhookId, scope);
  return row;
}

export const webhookNotFound = (id: string, scope: EnvironmentScope) =>
  notFound('SERVICE_WEBHOOK_NOT_FOUND', `No webhook endpoint ${id} in ${scope.environment}.`);

/** Nothing is sent to a disabled endpoint, on request or otherwise. */
export function assertEnabled(endpoint: EndpointRow): void {
  if (!endpoint.enabled) {
    throw conflict(
      'SERVICE_WEBHOOK_DISABLED',
      `Webhook endpoint ${endpoint.id} is disabled; re-enable it (PATCH {"enabled": true}) first.`,
    );
  }
}
