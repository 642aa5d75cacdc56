import { userActor } from '../audit/actor.js';
import { defineRoute } from '../http/route.js';
import { listOf } from '../shared/schemas.js';
import { presentFault } from './presenter.js';
import { createFaultBody, droppedSocketsSchema, dropSocketsBody, faultSchema, removedFaultsSchema } from './schemas.js';

const tag = 'Projects';
const PRODUCTION = { SERVICE_PRODUCTION_ENVIRONMENT: 'The environment is production, whose traffic is never faulted.' };

export const faultRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/environment/faults',
    operationId: 'listEnvironmentFaults',
    summary: 'List the faults injected into an environment',
    description:
      'The faults in force in `?environment=` (development when omitted), newest first; expired ones are left out. ' +
      'Production never has any.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: listOf(faultSchema),
    handler: async ({ app, auth }) => ({ data: (await app.services.faults.list(auth.scope)).map(presentFault) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/environment/faults',
    operationId: 'createEnvironmentFault',
    summary: 'Inject a fault into an environment',
    description:
      'For testing how your app copes, until it expires (default 10 minutes) or is removed: duplicate, late or ' +
      'out-of-order webhook deliveries, failed attempts (retried as usual), REST calls with the environment’s keys ' +
      'or tokens answered 503 or slowed down. Each applies to `percent` of the traffic, drawn at random. Dashboard ' +
      'routes are never faulted. Development and staging only; audited (`environment.fault_added`).',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    body: createFaultBody,
    status: 201,
    response: faultSchema,
    errors: PRODUCTION,
    handler: async ({ app, auth, body }) =>
      presentFault(await app.services.faults.add(userActor(auth), auth.scope, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/projects/{id}/environment/faults/{faultId}',
    operationId: 'removeEnvironmentFault',
    summary: 'Remove an injected fault',
    description: 'Ends the fault now, on every server. Audited (`environment.fault_removed`).',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    status: 204,
    errors: { ...PRODUCTION, SERVICE_FAULT_NOT_FOUND: 'No fault in force with this id in the environment.' },
    handler: async ({ app, auth, params }) => {
      await app.services.faults.remove(userActor(auth), auth.scope, params.faultId);
      return undefined;
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/projects/{id}/environment/faults',
    operationId: 'clearEnvironmentFaults',
    summary: 'Remove every injected fault',
    description:
      'Ends every fault in force in the environment, on every server; answers how many. Audited ' +
      '(`environment.fault_removed`) when there were any.',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    response: removedFaultsSchema,
    errors: PRODUCTION,
    handler: async ({ app, auth }) => ({ removed: await app.services.faults.clear(userActor(auth), auth.scope) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/environment/sockets/drop',
    operationId: 'dropEnvironmentSockets',
    summary: 'Drop an environment’s sockets',
    description:
      'Closes `percent` of the environment’s realtime (chat) and signaling sockets now, on every server, with code ' +
      '4206 and the reason `fault injected`: nothing is lost, so clients reconnect with the same token and catch ' +
      'up (the SDK’s ChatClient does). Answers how many this server closed; other nodes close theirs when the bus ' +
      'brings them the request. Development and staging only; audited (`environment.sockets_dropped`).',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    body: dropSocketsBody,
    response: droppedSocketsSchema,
    errors: PRODUCTION,
    handler: async ({ app, auth, body }) => ({
      closed: await app.services.faults.dropSockets(userActor(auth), auth.scope, body),
    }),
  }),
];
