import { userActor } from '../audit/actor.js';
import { defineRoute } from '../http/route.js';
import { presentEnvironmentReset } from './presenter.js';
import { environmentResetSchema } from './schemas.js';

export const environmentResetRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/environment/reset',
    operationId: 'resetEnvironment',
    summary: 'Reset an environment',
    description:
      'Empties the environment named by `?environment=` (development when omitted) of its runtime data, in one ' +
      'transaction: rooms, conversations with their members, messages, reactions, read state and attachments (rows ' +
      'and files), live streams, connection records, webhook deliveries and their attempts, telemetry, metrics and ' +
      'errors. Kept: API keys, webhook endpoints (their count of consecutive failures starts again at 0; a disabled ' +
      'endpoint stays disabled), members and the audit log, which records the reset with what it removed. The ' +
      'environment’s realtime and signaling sockets are closed with code 4205 and the reason `environment reset`. ' +
      'For isolation between test runs; production cannot be reset (403 SERVICE_PRODUCTION_ENVIRONMENT).',
    tag: 'Projects',
    auth: 'project-environment',
    capability: 'project:write',
    response: environmentResetSchema,
    errors: { SERVICE_PRODUCTION_ENVIRONMENT: 'The environment is production, which is never reset.' },
    handler: async ({ app, auth }) =>
      presentEnvironmentReset(await app.services.environmentReset.reset(userActor(auth), auth.scope)),
  }),
];
