import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { backupPaths } from '../backups/route.js';
import { attachmentContentPaths } from '../chat/attachments/openapi.js';
import { HEARTBEAT_MS } from '../http/event-stream.js';
import type { AnyRoute, AuthMode } from '../http/route.js';
import { errorSchema } from '../shared/schemas.js';
import { catalogueWebhooks } from '../webhooks/openapi.js';
import { simplifySchemas } from './simplify-schemas.js';

const SECURITY: Record<AuthMode, { [scheme: string]: string[] }[]> = {
  none: [],
  session: [{ session: [] }],
  project: [{ session: [] }],
  key: [{ apiKey: [] }],
  'session-or-key': [{ session: [] }, { apiKey: [] }],
  rtc: [{ rtcToken: [] }],
  'key-or-chat': [{ apiKey: [] }, { chatToken: [] }],
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorSchema } },
});

/** The errors a route can answer, from how it authenticates and what it parses, plus its own. */
function errorResponses(route: AnyRoute) {
  const responses: Record<string, ReturnType<typeof errorResponse>> = {
    400: errorResponse('Invalid input (`SERVICE_VALIDATION_FAILED`): the message names the field and why.'),
  };
  if (route.auth !== 'none')
    responses[401] = errorResponse('Missing or invalid credentials (`SERVICE_UNAUTHENTICATED`).');
  if (route.auth === 'project') {
    if (route.capability) {
      responses[403] = errorResponse(
        `The caller's role lacks \`${route.capability}\` (\`SERVICE_PERMISSION_DENIED\`).`,
      );
    }
    responses[404] = errorResponse('No such project, or the caller is not a member (`SERVICE_PROJECT_NOT_FOUND`).');
  }
  for (const [status, description] of Object.entries(route.errors ?? {})) {
    const existing = responses[status];
    responses[status] = errorResponse(existing ? `${existing.description} Also: ${description}` : description);
  }
  return responses;
}

function operation(route: AnyRoute): ZodOpenApiOperationObject {
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const status = route.status ?? 200;
  const capability =
    route.auth === 'project'
      ? `\n\nRequires ${route.capability ? `the \`${route.capability}\` capability` : 'project membership'}.`
      : '';
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description ?? ''}${capability}`.trim(),
    tags: [route.tag],
    security: SECURITY[route.auth],
    requestParams: {
      ...(pathParams.length ? { path: z.object(Object.fromEntries(pathParams.map((p) => [p, z.string()]))) } : {}),
      ...(route.query ? { query: route.query } : {}),
    },
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses: {
      [status]: route.eventStream
        ? {
            description:
              'A Server-Sent Events stream that stays open: per event an `event: <type>` line and a `data:` line ' +
              'holding this JSON, then a blank line; a `: heartbeat` comment every ' +
              `${HEARTBEAT_MS / 1000} seconds.`,
            content: { 'text/event-stream': { schema: route.eventStream } },
          }
        : status === 204 || !route.response
          ? { description: 'Done; no body.' }
          : { description: 'Success.', content: { 'application/json': { schema: route.response } } },
      ...errorResponses(route),
    },
  };
}

/** The OpenAPI 3.1 document, built from the same route table (and zod schemas) that serves requests. */
export function buildOpenApiDocument(routes: readonly AnyRoute[], info: { version: string }) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route) };
  }
  // Raw-bytes operations outside the JSON table; after it, so that tags keep the table's order.
  Object.assign(paths, attachmentContentPaths(), backupPaths());
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Switchboard API',
      version: info.version,
      description:
        'The one versioned REST API of Switchboard: the dashboard, the CLI and every SDK call it. Errors are ' +
        '`{code, message, requestId}` with the request id also in `X-Request-Id`. Request bodies and queries are ' +
        'strict: an unknown field is a 400. WebRTC signaling is a WebSocket at `/v1/rtc?access_token=<RTC token>`; ' +
        'its protocol is described in the README.',
    },
    servers: [{ url: '/', description: 'This Switchboard server' }],
    components: {
      securitySchemes: {
        session: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Dashboard session token from /v1/auth/login or /v1/auth/register.',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'Project API key, `sb_<env>_<public>.<secret>`; it decides project and environment.',
        },
        chatToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Chat token from POST /v1/chat/tokens: one end user, whose id every action carries.',
        },
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: "The server's admin token, `sbadmin_…`: the `admin-token` file of its data folder.",
        },
        rtcToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'RTC token from POST /v1/rooms/{roomId}/rtc-tokens, as held by a client SDK.',
        },
      },
    },
    paths,
    webhooks: catalogueWebhooks(),
  });
  return simplifySchemas(document);
}
