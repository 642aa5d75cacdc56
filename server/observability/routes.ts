import { authenticate } from '../http/authenticate.js';
import { serveEventStream } from '../http/event-stream.js';
import { defineRoute } from '../http/route.js';
import { pageOf } from '../shared/schemas.js';
import type { LiveEvent } from './live-events.js';
import {
  presentConnection,
  presentDiagnostics,
  presentErrorRecord,
  presentMetrics,
  presentUsage,
} from './presenter.js';
import {
  connectionSchema,
  connectionsQuery,
  diagnosticsSchema,
  errorRecordSchema,
  errorsQuery,
  liveEventSchema,
  metricsQuery,
  metricsSchema,
  usageQuery,
  usageSchema,
} from './schemas.js';

const tag = 'Observability';

const liveEventsRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/events',
  operationId: 'streamEvents',
  summary: 'Stream live events',
  description:
    'What happens in the environment, live, as Server-Sent Events: messages and the other catalogue events as ' +
    'metadata (never message text or other end-user content), connections opened and closed, error answers of ' +
    'runtime routes, webhook delivery attempts. Nothing is replayed: the stream starts with what happens after ' +
    'it opens, and ends when the project is deleted, the server stops, or a heartbeat finds that the session ' +
    'has ended or lost access. Send the session token in the Authorization header (a `fetch` stream; ' +
    'EventSource cannot send headers).',
  tag,
  auth: 'project-environment',
  // The live form of the connection and error logs, so the capability of their reads. Every role that
  // holds it also holds `chat:read` and `webhooks:read` (the messages and deliveries seen here), and
  // BILLING, which must not see traffic, holds none of them.
  capability: 'project:read',
  eventStream: liveEventSchema,
  handler: ({ app, auth, req, res }) => {
    serveEventStream<LiveEvent>(res, {
      nameOf: (event) => event.type,
      subscribe: (sink) => app.services.liveEvents.subscribe(auth.scope, sink),
      stillAllowed: () =>
        authenticate(app, liveEventsRoute, req).then(
          () => true,
          () => false,
        ),
    });
    return undefined;
  },
});

export const observabilityRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/connections',
    operationId: 'listConnections',
    summary: 'List connections',
    description:
      'Every signaling and realtime socket of the environment, newest first; `disconnectedAt` is null while open.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    query: connectionsQuery,
    response: pageOf(connectionSchema),
    handler: async ({ app, auth, query }) => {
      const page = await app.services.observabilityReads.listConnections(auth.scope, query);
      return { data: page.rows.map(presentConnection), nextCursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/connections/{connectionId}',
    operationId: 'getConnection',
    summary: 'Get a connection',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: connectionSchema,
    errors: {
      SERVICE_CONNECTION_NOT_FOUND: 'SERVICE_CONNECTION_NOT_FOUND (also for a connection of another environment)',
    },
    handler: async ({ app, auth, params }) =>
      presentConnection(await app.services.observabilityReads.getConnection(auth.scope, params.connectionId)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/errors',
    operationId: 'listErrors',
    summary: 'List errors',
    description:
      'The 4xx and 5xx answers of runtime routes (API key, chat or RTC credential) in the environment, newest ' +
      'first; the newest 10,000 per environment are kept. A request refused before its credential was accepted ' +
      'has no trustworthy environment and is not recorded.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    query: errorsQuery,
    response: pageOf(errorRecordSchema),
    handler: async ({ app, auth, query }) => {
      const page = await app.services.observabilityReads.listErrors(auth.scope, query);
      return { data: page.rows.map(presentErrorRecord), nextCursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/errors/{errorId}',
    operationId: 'getError',
    summary: 'Get an error record',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: errorRecordSchema,
    errors: { SERVICE_ERROR_NOT_FOUND: 'SERVICE_ERROR_NOT_FOUND (also for a record of another environment)' },
    handler: async ({ app, auth, params }) =>
      presentErrorRecord(await app.services.observabilityReads.getError(auth.scope, params.errorId)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/metrics',
    operationId: 'getMetrics',
    summary: 'Get metrics',
    description:
      'Per-minute series (zero-filled, oldest first, the current minute last) over `window`: runtime requests ' +
      'and errors, messages created, connections opened, webhook delivery attempts by outcome, telemetry events.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    query: metricsQuery,
    response: metricsSchema,
    handler: async ({ app, auth, query }) => {
      const series = await app.services.observabilityReads.metrics(auth.scope, query.window.minutes);
      return presentMetrics(auth.scope.environment, query.window.text, series);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/diagnostics',
    operationId: 'getDiagnostics',
    summary: 'Get diagnostics',
    description:
      'The deployment’s version, uptime, mode and database size, with this environment’s webhook queue, open ' +
      'connections and error rate of the last 5 minutes (other projects’ traffic is not shown).',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: diagnosticsSchema,
    handler: async ({ app, auth }) => {
      const diagnostics = await app.services.observabilityReads.diagnostics(auth.scope);
      return presentDiagnostics(app, auth.scope.environment, diagnostics);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/usage',
    operationId: 'getUsage',
    summary: 'Get usage',
    description:
      'Usage of one calendar month (UTC; `?month=YYYY-MM`, default the current one): messages created, ' +
      'connection minutes (signaling and realtime, rounded up), webhook delivery attempts, and the bytes of ' +
      'completed attachments stored now. For the BILLING role too.',
    tag,
    auth: 'project-environment',
    capability: 'usage:read',
    query: usageQuery,
    response: usageSchema,
    handler: async ({ app, auth, query }) => {
      return presentUsage(auth.scope.environment, await app.services.observabilityReads.usage(auth.scope, query.month));
    },
  }),
  liveEventsRoute,
];
