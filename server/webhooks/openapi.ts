import * as z from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { timestampSchema } from '../shared/schemas.js';
import { EVENT_CATALOGUE, EVENT_TYPES } from './catalogue.js';
import { upperEnvironmentSchema } from './schemas.js';

const deliveryHeaders = z.object({
  'service-signature': z.string().meta({
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the endpoint’s signing secret. ' +
      'Reject a timestamp more than 300 s from now; compare in constant time.',
    example: 't=1767225600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  }),
  'service-event-id': z.string().meta({ description: 'The `evt_` id, stable across retries: deduplicate on it.' }),
  'service-event-type': z.string().meta({ description: 'The event type.', example: 'message.created' }),
});

/**
 * The event catalogue as the OpenAPI 3.1 `webhooks` section: for each type, the POST this server
 * makes to a registered endpoint, with the envelope and the type's `data` schema.
 */
export function catalogueWebhooks(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const { description, data, example } = EVENT_CATALOGUE[type];
      const envelope = z.object({
        id: z.string().meta({ description: 'Event id (`evt_`), the same in every retry.' }),
        type: z.literal(type),
        projectId: z.string(),
        environment: upperEnvironmentSchema,
        createdAt: timestampSchema,
        data,
      });
      return [
        type,
        {
          post: {
            operationId: `webhook.${type}`,
            summary: type,
            description: `${description} Delivered to endpoints of the event's environment that subscribe to \`${type}\` (or to every type).`,
            tags: ['Webhook events'],
            // Your endpoint takes no credential of ours: it verifies the `service-signature` header instead.
            security: [],
            requestParams: { header: deliveryHeaders },
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: envelope,
                  example: {
                    id: 'evt_01JD3K5V8Q3N4M2X6Y7Z8A9B0C',
                    type,
                    projectId: 'prj_01JD3K5V8Q3N4M2X6Y7Z8A9B0C',
                    environment: 'PRODUCTION',
                    createdAt: '2026-01-01T09:00:00.000Z',
                    data: example,
                  },
                },
              },
            },
            responses: {
              '2XX': {
                description:
                  'Acknowledged. Answer within 5 s; any other status, a timeout or a connection failure is retried ' +
                  'after 10, 20, 40, 80, 160 and 320 s.',
              },
            },
          },
        },
      ];
    }),
  );
}
