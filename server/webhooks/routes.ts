import { actorOf } from '../audit/actor.js';
import { defineRoute } from '../http/route.js';
import { listOf, pageOf } from '../shared/schemas.js';
import { EVENT_CATALOGUE, EVENT_TYPES } from './catalogue.js';
import type { DeliveryWithAttempts } from './delivery-log.js';
import {
  presentDeliveryBody,
  presentRegisteredWebhook,
  presentWebhookDelivery,
  presentWebhookEndpoint,
} from './presenter.js';
import {
  catalogueEntrySchema,
  deliveriesQuery,
  deliveryBodySchema,
  registeredWebhookSchema,
  registerWebhookBody,
  testEventBody,
  updateWebhookBody,
  webhookDeliverySchema,
  webhookEndpointSchema,
} from './schemas.js';

const tag = 'Webhooks';
const present = ({ delivery, attempts }: DeliveryWithAttempts) => presentWebhookDelivery(delivery, attempts);

const ONE_ENDPOINT =
  'The endpoint must belong to `?environment=` (default development), as for every environment-scoped resource: ' +
  'an endpoint of another environment is not found.';
const NOT_FOUND = { SERVICE_WEBHOOK_NOT_FOUND: 'No such endpoint in the environment.' };
const DELIVERY_NOT_FOUND = {
  ...NOT_FOUND,
  SERVICE_WEBHOOK_DELIVERY_NOT_FOUND: 'No such delivery of the endpoint.',
};
const REFUSED = {
  SERVICE_WEBHOOK_TARGET_REFUSED: 'The URL is not an allowed target in this deployment mode; the message says why.',
};
const DISABLED = { SERVICE_WEBHOOK_DISABLED: 'The endpoint is disabled; re-enable it first.' };

export const webhookRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/webhook-events',
    operationId: 'listWebhookEventTypes',
    summary: 'List the event catalogue',
    description:
      'Every event type webhooks deliver, with a description and an example `data` object. The `data` schema of ' +
      'each is in the `webhooks` section of this document. Public: no credential needed.',
    tag,
    auth: 'none',
    response: listOf(catalogueEntrySchema),
    handler: () => ({
      data: EVENT_TYPES.map((type) => ({
        type,
        description: EVENT_CATALOGUE[type].description,
        example: EVENT_CATALOGUE[type].example,
      })),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/webhooks',
    operationId: 'registerWebhook',
    summary: 'Register a webhook endpoint',
    description:
      'The endpoint receives the events of one environment (the subscribed types, or all when `events` is empty or ' +
      'absent). The signing secret is in this response only. Audited.',
    tag,
    auth: 'project',
    capability: 'webhooks:manage',
    body: registerWebhookBody,
    status: 201,
    response: registeredWebhookSchema,
    errors: REFUSED,
    handler: async ({ app, auth, params, body }) => {
      const { row, secret } = await app.services.webhooks.register(actorOf(auth), params.id, body);
      return presentRegisteredWebhook(row, secret);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/webhooks',
    operationId: 'listWebhooks',
    summary: 'List webhook endpoints of an environment',
    description: 'The endpoints of `?environment=` (default development), oldest first. Never the secret.',
    tag,
    auth: 'project-environment',
    capability: 'webhooks:read',
    response: listOf(webhookEndpointSchema),
    handler: async ({ app, auth }) => ({
      data: (await app.services.webhooks.list(auth.scope)).map(presentWebhookEndpoint),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/webhooks/{webhookId}',
    operationId: 'getWebhook',
    summary: 'Get a webhook endpoint',
    description: ONE_ENDPOINT,
    tag,
    auth: 'project-environment',
    capability: 'webhooks:read',
    response: webhookEndpointSchema,
    errors: NOT_FOUND,
    handler: async ({ app, auth, params }) =>
      presentWebhookEndpoint(await app.services.webhooks.get(auth.scope, params.webhookId)),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/projects/{id}/webhooks/{webhookId}',
    operationId: 'updateWebhook',
    summary: 'Update a webhook endpoint',
    description:
      'Change the URL or the subscribed events, disable (`enabled: false`: pending deliveries fail, nothing more is ' +
      `sent) or re-enable (\`enabled: true\`: the failure count is cleared). Audited. ${ONE_ENDPOINT}`,
    tag,
    auth: 'project-environment',
    capability: 'webhooks:manage',
    body: updateWebhookBody,
    response: webhookEndpointSchema,
    errors: { ...NOT_FOUND, ...REFUSED },
    handler: async ({ app, auth, params, body }) =>
      presentWebhookEndpoint(await app.services.webhooks.update(actorOf(auth), auth.scope, params.webhookId, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/projects/{id}/webhooks/{webhookId}',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description: `Deletes the endpoint with its deliveries and their log. Audited. ${ONE_ENDPOINT}`,
    tag,
    auth: 'project-environment',
    capability: 'webhooks:manage',
    status: 204,
    errors: NOT_FOUND,
    handler: async ({ app, auth, params }) => {
      await app.services.webhooks.delete(actorOf(auth), auth.scope, params.webhookId);
      return undefined;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/webhooks/{webhookId}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'List deliveries (the delivery log)',
    description:
      'Newest first, each with its status, attempts, last status code, next attempt time and every attempt: time, ' +
      'duration, the request headers sent, status code, error and the first 4 KB of the response body. Filter by ' +
      '`status` and `eventType` (both at once: deliveries matching both). The payload is not shown here (it may ' +
      `carry message text): see \`/body\`. ${ONE_ENDPOINT}`,
    tag,
    auth: 'project-environment',
    capability: 'webhooks:read',
    query: deliveriesQuery,
    response: pageOf(webhookDeliverySchema),
    errors: NOT_FOUND,
    handler: async ({ app, auth, params, query }) => {
      const page = await app.services.webhooks.listDeliveries(auth.scope, params.webhookId, query);
      return { data: page.rows.map(present), nextCursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/webhooks/{webhookId}/deliveries/{deliveryId}',
    operationId: 'getWebhookDelivery',
    summary: 'Get a delivery',
    description: `One delivery with every attempt. ${ONE_ENDPOINT}`,
    tag,
    auth: 'project-environment',
    capability: 'webhooks:read',
    response: webhookDeliverySchema,
    errors: DELIVERY_NOT_FOUND,
    handler: async ({ app, auth, params }) =>
      present(await app.services.webhooks.getDelivery(auth.scope, params.webhookId, params.deliveryId)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/body',
    operationId: 'getWebhookDeliveryBody',
    summary: 'Get the body a delivery sends',
    description:
      'The request body exactly as every attempt POSTs and signs it: the event envelope, which can carry message ' +
      'text. It takes `webhooks:manage`, as whoever holds it could register an endpoint and receive the same bytes; ' +
      `\`webhooks:read\` alone sees the log without payloads. ${ONE_ENDPOINT}`,
    tag,
    auth: 'project-environment',
    capability: 'webhooks:manage',
    response: deliveryBodySchema,
    errors: DELIVERY_NOT_FOUND,
    handler: async ({ app, auth, params }) =>
      presentDeliveryBody(await app.services.webhooks.getDeliveryRow(auth.scope, params.webhookId, params.deliveryId)),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/resend',
    operationId: 'resendWebhookDelivery',
    summary: 'Resend a delivery now',
    description:
      'Queues one more attempt, due now, of any delivery (pending, succeeded or failed): the same event id and ' +
      'body with a fresh signature. If it fails, a retry follows while the delivery has made fewer than 7 attempts; ' +
      `otherwise it is FAILED. Answers 202 with the delivery as queued. ${ONE_ENDPOINT}`,
    tag,
    auth: 'project-environment',
    capability: 'webhooks:manage',
    status: 202,
    response: webhookDeliverySchema,
    errors: { ...DELIVERY_NOT_FOUND, ...DISABLED },
    handler: async ({ app, auth, params }) =>
      present(await app.services.webhooks.resend(auth.scope, params.webhookId, params.deliveryId)),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/webhooks/{webhookId}/test',
    operationId: 'sendTestWebhook',
    summary: 'Send a test event',
    description:
      'Queues a new event (its own `evt_` id) of any catalogue type, carrying the catalogue example as `data`, to ' +
      'this endpoint only, whatever it subscribes to. It is signed, retried and logged like any delivery. Answers ' +
      `202 with the delivery. ${ONE_ENDPOINT}`,
    tag,
    auth: 'project-environment',
    capability: 'webhooks:manage',
    body: testEventBody,
    status: 202,
    response: webhookDeliverySchema,
    errors: { ...NOT_FOUND, ...DISABLED },
    handler: async ({ app, auth, params, body }) =>
      present(await app.services.webhooks.sendTest(auth.scope, params.webhookId, body.type)),
  }),
];
