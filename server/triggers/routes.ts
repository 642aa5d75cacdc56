import { userActor } from '../audit/actor.js';
import { defineRoute } from '../http/route.js';
import { listOf } from '../shared/schemas.js';
import { presentTriggeredEvent } from './presenter.js';
import { triggerEventBody, triggeredEventSchema, triggerSchema } from './schemas.js';
import { TRIGGER_USERS } from './steps.js';

const users = `\`${TRIGGER_USERS.alice}\` and \`${TRIGGER_USERS.bob}\``;

export const triggerRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/environment/triggers',
    operationId: 'triggerEvent',
    summary: 'Trigger an event',
    description:
      'Makes an event of the catalogue happen in the environment named by `?environment=` (development when ' +
      'omitted), like `stripe trigger`: it creates the objects the event needs and acts on them through the same ' +
      `services as the API (as the end users ${users}), so the event is real. It reaches the environment’s ` +
      'subscribed webhook endpoints, its realtime sockets and its live event stream as any event does. Creating the ' +
      'objects emits their own events on the way (a message needs a conversation: `conversation.created`, ' +
      '`member.added`): `events` lists every event emitted, in order (the triggered one among them); `objects` the ids of ' +
      'what was created or acted on. Names carry a random suffix, so a trigger can run again. Audited ' +
      '(`environment.event_triggered`). Never in production (403 SERVICE_PRODUCTION_ENVIRONMENT).',
    tag: 'Projects',
    auth: 'project-environment',
    capability: 'rooms:write',
    body: triggerEventBody,
    status: 201,
    response: triggeredEventSchema,
    errors: {
      SERVICE_PRODUCTION_ENVIRONMENT: 'The environment is production, where nothing is triggered.',
      SERVICE_UNAVAILABLE: 'A participant event while the cluster’s Redis is unreachable; retry.',
    },
    handler: async ({ app, auth, body }) =>
      presentTriggeredEvent(await app.services.triggers.trigger(userActor(auth), auth.scope, body.event)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/environment/triggers',
    operationId: 'listTriggers',
    summary: 'List the events that can be triggered',
    description:
      'Every event type of the catalogue can be triggered: for each, what its trigger does and the events it emits, ' +
      'in order.',
    tag: 'Projects',
    auth: 'project',
    capability: 'project:read',
    response: listOf(triggerSchema),
    handler: ({ app }) => ({ data: app.services.triggers.list() }),
  }),
];
