import * as z from 'zod';
import { DELIVERY_STATUSES } from '../../db/schema/webhooks.js';
import { ENVIRONMENTS, environmentSchema, upperEnvironment } from '../environments.js';
import { cursorSchema, limitSchema } from '../shared/pagination.js';
import { timestampSchema } from '../shared/schemas.js';
import { EVENT_TYPES, eventTypeSchema } from './catalogue.js';
import { RESPONSE_BODY_LOG_BYTES } from './policy.js';
import { withoutScheme } from './target.js';

const urlSchema = z.lazy(() =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((url) => URL.canParse(url), {
      // The deployment mode is not known here: the scheme a local one would take, which targetRefusal checks later.
      error: (issue) => {
        const meant = typeof issue.input === 'string' ? withoutScheme(issue.input, 'local') : undefined;
        return `must be an absolute URL, e.g. ${meant ? meant.href : 'https://example.com/webhooks'}`;
      },
    })
    .meta({
      description:
        'Where deliveries are POSTed. Production deployments require https:// and refuse loopback, private, ' +
        'link-local and unspecified addresses; local deployments allow loopback and private ones. The hostname is ' +
        'checked as written (no DNS lookup).',
      example: 'https://example.com/webhooks/switchboard',
    }),
);

const eventsSchema = z.lazy(() =>
  z
    .array(eventTypeSchema)
    .max(EVENT_TYPES.length * 2, 'too many event types')
    // A set: repeats are dropped, first occurrence kept.
    .transform((types) => [...new Set(types)])
    .meta({ description: 'Catalogue event types to receive; empty or absent means every type.' }),
);

export const registerWebhookBody = z.lazy(() =>
  z
    .strictObject({
      url: urlSchema,
      environment: environmentSchema.meta({
        description:
          'The environment whose events the endpoint receives: development, staging or production (any letter case).',
      }),
      events: eventsSchema.optional().default([]),
    })
    .meta({ id: 'RegisterWebhookRequest' }),
);

export const updateWebhookBody = z.lazy(() =>
  z
    .strictObject({
      url: urlSchema.optional(),
      events: eventsSchema.optional(),
      enabled: z.boolean().optional().meta({
        description: '`true` re-enables a disabled endpoint and clears its failure count; `false` disables it.',
      }),
    })
    .meta({ id: 'UpdateWebhookRequest' }),
);

export const testEventBody = z.lazy(() =>
  z.strictObject({ type: eventTypeSchema }).meta({ id: 'SendTestWebhookRequest' }),
);

export const deliveriesQuery = z.lazy(() =>
  z.strictObject({
    limit: limitSchema(),
    cursor: cursorSchema(),
    status: z.enum(DELIVERY_STATUSES).optional().meta({ description: 'Only deliveries in this status.' }),
    eventType: eventTypeSchema.optional().meta({ description: 'Only deliveries of this catalogue event type.' }),
  }),
);

export const upperEnvironmentSchema = z.lazy(() =>
  z
    .enum(ENVIRONMENTS.map(upperEnvironment) as [Uppercase<(typeof ENVIRONMENTS)[number]>])
    .meta({ description: 'The environment, in upper case as webhooks show it.', example: 'PRODUCTION' }),
);

export const webhookEndpointSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'wh_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      url: z.string(),
      environment: upperEnvironmentSchema,
      events: z.array(z.string()).meta({ description: 'Subscribed event types; empty means every type.' }),
      enabled: z.boolean(),
      consecutiveFailures: z.int().meta({
        description: 'Failed attempts in a row across all its deliveries; at 50 the endpoint is disabled.',
      }),
      disabledAt: timestampSchema.nullable(),
      disabledReason: z.string().nullable().meta({ example: 'Disabled after 50 consecutive failed attempts.' }),
      createdAt: timestampSchema,
      updatedAt: timestampSchema,
    })
    .meta({ id: 'WebhookEndpoint' }),
);

export const registeredWebhookSchema = z.lazy(() =>
  webhookEndpointSchema
    .unwrap()
    .extend({
      secret: z.string().meta({
        description:
          'The signing secret (the whole text is the HMAC key). Shown in this response only; the server keeps it encrypted.',
        example: 'whsec_Q2x9T4mB7cKfR1sLwP3zV8n2Jk5Q0aHd7Yt3Lm9X',
      }),
    })
    .meta({ id: 'RegisteredWebhookEndpoint' }),
);

export const webhookAttemptSchema = z.lazy(() =>
  z
    .object({
      number: z.int().meta({ description: '1 for the first attempt.' }),
      attemptedAt: timestampSchema,
      durationMs: z.int(),
      statusCode: z.int().nullable().meta({ description: 'Null when no response came.' }),
      error: z.string().nullable().meta({ example: 'Timed out after 5 s.' }),
      requestHeaders: z
        .record(z.string(), z.string())
        .nullable()
        .meta({
          description:
            'The request headers as sent, `service-signature` with this attempt’s timestamp; null when nothing was sent ' +
            '(a refused target). The body is the same on every attempt: see the delivery’s `/body`.',
          example: {
            'content-type': 'application/json',
            'user-agent': 'Switchboard-Webhooks/0.1.0',
            'service-signature': 't=1767225600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
            'service-event-id': 'evt_01JD3K5V8Q3N4M2X6Y7Z8A9B0C',
            'service-event-type': 'message.created',
          },
        }),
      responseBody: z
        .string()
        .nullable()
        .meta({ description: `The first ${RESPONSE_BODY_LOG_BYTES} bytes of the response body, as text.` }),
      injectedFault: z
        .string()
        .nullable()
        .meta({
          description:
            'The fault injected into the environment that shaped this attempt: `webhook.failure` (not sent, recorded ' +
            'as failed), `webhook.duplicate` (a second copy of a delivery that succeeded), `webhook.delay` or ' +
            '`webhook.out_of_order` (held back before it); null for an ordinary attempt.',
          example: null,
        }),
    })
    .meta({ id: 'WebhookAttempt' }),
);

export const webhookDeliverySchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'whd_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      webhookId: z.string(),
      eventId: z.string().meta({ example: 'evt_01JD3K5V8Q3N4M2X6Y7Z8A9B0C', description: 'Stable across retries.' }),
      eventType: z.string().meta({ example: 'message.created' }),
      status: z.enum(DELIVERY_STATUSES),
      attempts: z.int().meta({ description: 'Attempts made so far.' }),
      lastStatusCode: z.int().nullable(),
      lastError: z.string().nullable(),
      nextAttemptAt: timestampSchema
        .nullable()
        .meta({ description: 'When the next attempt is due; null once settled.' }),
      createdAt: timestampSchema,
      updatedAt: timestampSchema,
      attemptLog: z.array(webhookAttemptSchema).meta({ description: 'Every attempt, oldest first.' }),
    })
    .meta({ id: 'WebhookDelivery' }),
);

export const deliveryBodySchema = z.lazy(() =>
  z
    .object({
      deliveryId: z.string().meta({ example: 'whd_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      contentType: z.literal('application/json'),
      body: z.string().meta({
        description:
          'The request body exactly as POSTed (and signed) on every attempt: the event envelope as JSON text.',
      }),
    })
    .meta({ id: 'WebhookDeliveryBody' }),
);

export const catalogueEntrySchema = z.lazy(() =>
  z
    .object({
      type: z.string().meta({ example: 'message.created' }),
      description: z.string(),
      example: z.record(z.string(), z.unknown()).meta({ description: 'An example `data` object.' }),
    })
    .meta({ id: 'WebhookEventType' }),
);
