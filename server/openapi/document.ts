import * as z from 'zod';
import { createDocument, type oas31, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { backupPaths } from '../backups/route.js';
import { attachmentContentPaths } from '../chat/attachments/openapi.js';
import { ERROR_CODES, type ErrorCode } from '../error-codes.js';
import { HEARTBEAT_MS } from '../http/event-stream.js';
import { type AnyRoute, type AuthMode, acceptsApiKey, isProjectRoute, queryOf } from '../http/route.js';
import { errorSchema } from '../shared/schemas.js';
import { catalogueWebhooks } from '../webhooks/openapi.js';
import { describeRequestDefaults } from './input-defaults.js';
import { simplifySchemas } from './simplify-schemas.js';

const SECURITY: Record<AuthMode, { [scheme: string]: string[] }[]> = {
  none: [],
  session: [{ session: [] }],
  project: [{ session: [] }],
  'project-environment': [{ session: [] }],
  key: [{ apiKey: [] }],
  'session-or-key': [{ session: [] }, { apiKey: [] }],
  rtc: [{ rtcToken: [] }],
  'key-or-chat': [{ apiKey: [] }, { chatToken: [] }],
  admin: [{ adminToken: [] }],
  'admin-or-owner': [{ adminToken: [] }, { session: [] }],
};

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 0 },
  },
} satisfies oas31.HeadersObject;

/** The answer with an error body; a refusal to retry later (429, 503) says when in `Retry-After`. */
const errorResponse = (status: number, description: string) => ({
  description,
  ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
  content: { 'application/json': { schema: errorSchema } },
});

/** `code`: what it means here, for the description of the route's answers with that code's status. */
const errorLine = (code: ErrorCode, meaning: string = ERROR_CODES[code].when) =>
  `\`${code}\`: ${meaning.endsWith('.') ? meaning : `${meaning}.`}`;

/** The errors a route can answer, from how it authenticates and what it parses, plus its own; grouped by status. */
function errorResponses(route: AnyRoute) {
  const lines: [ErrorCode, string][] = [
    [
      'SERVICE_VALIDATION_FAILED',
      errorLine('SERVICE_VALIDATION_FAILED', 'invalid input; `fields` names each field and why.'),
    ],
  ];
  if (route.auth !== 'none') lines.push(['SERVICE_UNAUTHENTICATED', errorLine('SERVICE_UNAUTHENTICATED')]);
  if (isProjectRoute(route.auth)) {
    if (route.capability) {
      lines.push([
        'SERVICE_PERMISSION_DENIED',
        errorLine('SERVICE_PERMISSION_DENIED', `the caller's role lacks \`${route.capability}\`.`),
      ]);
    }
    lines.push(['SERVICE_PROJECT_NOT_FOUND', errorLine('SERVICE_PROJECT_NOT_FOUND')]);
  }
  const own = (route.errors ?? {}) as Partial<Record<ErrorCode, string>>;
  for (const [code, meaning] of Object.entries(own) as [ErrorCode, string][])
    lines.push([code, errorLine(code, meaning)]);
  // What the route table answers to any call (server/http/register-routes.ts), unless the route says it in its words.
  const common: [ErrorCode, string | undefined, boolean][] = [
    ['SERVICE_PAYLOAD_TOO_LARGE', undefined, route.body !== undefined],
    ['SERVICE_UNSUPPORTED_MEDIA_TYPE', undefined, route.body !== undefined],
    [
      'SERVICE_RATE_LIMITED',
      'past the API key’s request rate, when the server sets one; `Retry-After` says when to retry',
      acceptsApiKey(route.auth),
    ],
    // An injected fault reaches an environment's keys and tokens (chat ones come with keys), never a session.
    ['SERVICE_FAULT_INJECTED', undefined, acceptsApiKey(route.auth) || route.auth === 'rtc'],
    [
      'SERVICE_UNAVAILABLE',
      'the database is busy or cannot be reached, or the server is shutting down; `Retry-After` says when to retry',
      true,
    ],
  ];
  for (const [code, meaning, applies] of common) {
    if (applies && !(code in own)) lines.push([code, errorLine(code, meaning)]);
  }
  const byStatus = new Map<number, string[]>();
  for (const [code, line] of lines) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), line]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, texts]) => [status, errorResponse(status, texts.join(' Also: '))]),
  );
}

function operation(route: AnyRoute): ZodOpenApiOperationObject {
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const status = route.status ?? 200;
  const capability = isProjectRoute(route.auth)
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
      ...(queryOf(route) ? { query: queryOf(route) } : {}),
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

/** Every tag the route table and the webhook catalogue use, in the order the reference shows them. */
const TAGS = [
  { name: 'Auth', description: 'Accounts and dashboard sessions.' },
  { name: 'Projects', description: 'Projects, each with three fixed environments: development, staging, production.' },
  {
    name: 'Members',
    description: 'Who has access to a project, with which role; invitations for those without an account.',
  },
  { name: 'API keys', description: 'Keys of one project environment, for your backend. The secret is shown once.' },
  { name: 'Audit log', description: 'Every change made through the dashboard routes, read-only.' },
  { name: 'Rooms', description: 'Rooms of an environment and the RTC tokens that join them over `/v1/rtc`.' },
  { name: 'Telemetry', description: 'Events a client SDK reports with its RTC token.' },
  {
    name: 'Chat',
    description:
      'Conversations, messages, threads, reactions, read state and attachments, with an API key or a chat token.',
  },
  {
    name: 'Chat inspection',
    description: 'What the dashboard shows of chat: counts, conversations and connections, never message content.',
  },
  {
    name: 'Live streams',
    description: 'A room and a conversation for one broadcast, with host and viewer credentials.',
  },
  {
    name: 'Webhooks',
    description: 'Endpoints that receive signed events, their delivery log, resends and test events.',
  },
  {
    name: 'Observability',
    description: 'Connections, errors, per-minute metrics, diagnostics, usage and the live event stream.',
  },
  {
    name: 'Server',
    description: 'The server as a whole, with the admin token: a backup of all its data, the nodes that serve it.',
  },
  {
    name: 'Webhook events',
    description: 'What this server POSTs to your webhook endpoints: one operation per event type.',
  },
];

/** The OpenAPI 3.1 document, built from the same route table (and zod schemas) that serves requests. */
export function buildOpenApiDocument(routes: readonly AnyRoute[], info: { version: string }): oas31.OpenAPIObject {
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
        'strict: an unknown field is a 400. No text may hold a NUL character (U+0000): in a path parameter, a ' +
        'query, a body value or a body field name it is a 400 naming the field, on every store. WebRTC signaling is a WebSocket at `/v1/rtc?access_token=<RTC token>`; ' +
        'its protocol is described in docs/signaling.md.',
      contact: { name: 'Switchboard contributors', url: 'https://switchboard.dev' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: TAGS,
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
  return describeRequestDefaults(simplifySchemas(document));
}
