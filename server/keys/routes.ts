import { actorOf } from '../audit/actor.js';
import { defineRoute } from '../http/route.js';
import { listOf } from '../shared/schemas.js';
import { presentApiKey, presentCreatedApiKey } from './presenter.js';
import { apiKeySchema, createdApiKeySchema, createKeyBody } from './schemas.js';

const tag = 'API keys';

export const keyRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/api-keys',
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description:
      'A key belongs to one environment (default development). The full key is in this response only; keep a ' +
      'production key server-side.',
    tag,
    auth: 'project',
    capability: 'keys:manage',
    body: createKeyBody,
    status: 201,
    response: createdApiKeySchema,
    handler: async ({ app, auth, params, body }) => {
      const { row, text } = await app.services.keys.create(actorOf(auth), params.id, body);
      return presentCreatedApiKey(row, text);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/api-keys',
    operationId: 'listApiKeys',
    summary: 'List API keys of an environment',
    description: 'Active keys of `?environment=` (default development): metadata only, never the secret.',
    tag,
    auth: 'project-environment',
    capability: 'keys:read',
    response: listOf(apiKeySchema),
    handler: async ({ app, auth }) => ({
      data: (await app.services.keys.list(auth.scope)).map(presentApiKey),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/projects/{id}/api-keys/{keyId}',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description:
      'The key answers 401 from the next request on. The key must belong to `?environment=` (default development).',
    tag,
    auth: 'project-environment',
    capability: 'keys:manage',
    status: 204,
    errors: { SERVICE_API_KEY_NOT_FOUND: 'No active key with this id in the environment.' },
    handler: async ({ app, auth, params }) => {
      await app.services.keys.revoke(actorOf(auth), auth.scope, params.keyId);
      return undefined;
    },
  }),
];
