import { userActor } from '../audit/actor.js';
import { defineRoute } from '../http/route.js';
import { presentEnvironmentClock } from './presenter.js';
import { advanceClockBody, environmentClockSchema } from './schemas.js';

const tag = 'Projects';
const path = '/v1/projects/{id}/environment/clock';
const follows =
  'What follows the clock there: webhook retries and endpoint auto-disable, the expiry of chat and RTC tokens and ' +
  'live-stream credentials, typing indicators, and the windows of metrics.';
const production = {
  SERVICE_PRODUCTION_ENVIRONMENT: 'The environment is production, whose clock is always real time.',
};

export const testClockRoutes = [
  defineRoute({
    method: 'get',
    path,
    operationId: 'getEnvironmentClock',
    summary: 'Read an environment’s clock',
    description:
      'The time of the environment named by `?environment=` (development when omitted): real time, or ahead of it ' +
      `by \`offsetMs\` once its test clock was advanced. Production’s is always real time. ${follows}`,
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: environmentClockSchema,
    handler: async ({ app, auth }) => presentEnvironmentClock(await app.services.testClock.read(auth.scope)),
  }),
  defineRoute({
    method: 'post',
    path: `${path}/advance`,
    operationId: 'advanceEnvironmentClock',
    summary: 'Advance an environment’s clock',
    description:
      'Moves the test clock of a development or staging environment forward by `seconds`, for testing what waits on ' +
      `time without waiting: ${follows.charAt(0).toLowerCase()}${follows.slice(1)} Webhook retries that came due go ` +
      'out at once, in order, each scheduled from when the previous attempt was due, so advancing by the whole ' +
      'schedule runs it to the end. The clock only moves forward until reset; at most 10 years ahead in all. ' +
      'Audited (`environment.clock_advanced`). Production is refused (403 SERVICE_PRODUCTION_ENVIRONMENT).',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    body: advanceClockBody,
    response: environmentClockSchema,
    errors: production,
    handler: async ({ app, auth, body }) =>
      presentEnvironmentClock(await app.services.testClock.advance(userActor(auth), auth.scope, body.seconds)),
  }),
  defineRoute({
    method: 'delete',
    path,
    operationId: 'resetEnvironmentClock',
    summary: 'Reset an environment’s clock',
    description:
      'Puts the environment back on real time. What was stamped in its future stays so (messages, webhook attempts, ' +
      'metric minutes); pending webhook retries keep their place in the schedule (due as far ahead of real time as ' +
      'they were of the environment’s). Audited (`environment.clock_reset`). Production is refused (403 ' +
      'SERVICE_PRODUCTION_ENVIRONMENT).',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    response: environmentClockSchema,
    errors: production,
    handler: async ({ app, auth }) =>
      presentEnvironmentClock(await app.services.testClock.reset(userActor(auth), auth.scope)),
  }),
];
