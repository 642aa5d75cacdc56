import type * as z from 'zod';
import { toIso, toIsoOrNull } from '../clock.js';
import { upperEnvironment } from '../environments.js';
import type { AttemptRow, DeliveryRow, EndpointRow } from './queue.js';
import type {
  deliveryBodySchema,
  registeredWebhookSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
} from './schemas.js';

export const presentWebhookEndpoint = (row: EndpointRow): z.input<typeof webhookEndpointSchema> => ({
  id: row.id,
  url: row.url,
  environment: upperEnvironment(row.environment),
  events: row.events,
  enabled: row.enabled,
  consecutiveFailures: row.consecutiveFailures,
  disabledAt: toIsoOrNull(row.disabledAt),
  disabledReason: row.disabledReason,
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
});

export const presentRegisteredWebhook = (
  row: EndpointRow,
  secret: string,
): z.input<typeof registeredWebhookSchema> => ({ ...presentWebhookEndpoint(row), secret });

/**
 * The payload is left out on purpose: it may hold message text, which reads for `webhooks:read` never show.
 * `presentDeliveryBody` gives it to those who may manage endpoints (and so could receive it anyway).
 */
export const presentWebhookDelivery = (
  row: DeliveryRow,
  attempts: AttemptRow[],
): z.input<typeof webhookDeliverySchema> => ({
  id: row.id,
  webhookId: row.endpointId,
  eventId: row.eventId,
  eventType: row.eventType,
  status: row.status,
  attempts: row.attempts,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  nextAttemptAt: toIsoOrNull(row.nextAttemptAt),
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
  attemptLog: attempts.map((attempt) => ({
    number: attempt.number,
    attemptedAt: toIso(attempt.attemptedAt),
    durationMs: attempt.durationMs,
    statusCode: attempt.statusCode,
    error: attempt.error,
    requestHeaders: attempt.requestHeaders,
    responseBody: attempt.responseBody,
    injectedFault: attempt.injectedFault,
  })),
});

export const presentDeliveryBody = (row: DeliveryRow): z.input<typeof deliveryBodySchema> => ({
  deliveryId: row.id,
  contentType: 'application/json',
  body: row.payload,
});
