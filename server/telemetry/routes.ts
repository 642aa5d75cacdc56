import { defineRoute } from '../http/route.js';
import { telemetryAcceptedSchema, telemetryBody } from './schemas.js';

export const telemetryRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/telemetry/events',
    operationId: 'sendTelemetry',
    summary: 'Send client telemetry',
    description:
      'For SDKs, with the RTC token they already hold: up to 100 events per call, each `data` at most 4 KB. ' +
      'Stored tagged with the token’s project, environment, room and identity; the newest 100,000 events per ' +
      'environment are kept.',
    tag: 'Telemetry',
    auth: 'rtc',
    body: telemetryBody,
    status: 202,
    response: telemetryAcceptedSchema,
    handler: async ({ app, auth, body }) => ({
      accepted: await app.services.telemetry.record(
        { ...auth.scope, roomId: auth.roomId, identity: auth.identity },
        body.events,
      ),
    }),
  }),
];
