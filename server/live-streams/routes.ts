import { defineRoute } from '../http/route.js';
import { pageQuery } from '../shared/pagination.js';
import { pageOf } from '../shared/schemas.js';
import { dashboardLiveStreamRoutes } from './dashboard-routes.js';
import { presentCredential, presentLiveStream, presentLiveStreamPage } from './presenter.js';
import { notFound, stateConflict, tag } from './route-docs.js';
import {
  addHostBody,
  createLiveStreamBody,
  hostCredentialSchema,
  leaveBody,
  liveStreamSchema,
  removeHostQuery,
  updateLiveStreamBody,
  viewerCredentialSchema,
  viewerTokenBody,
} from './schemas.js';

/** Routes with an API key: the key's environment. */
const keyRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/live-streams',
    operationId: 'createLiveStream',
    summary: 'Create a live stream',
    description: 'Wraps one new room (media) and one new conversation (chat) of the key’s environment. Status CREATED.',
    tag,
    auth: 'key',
    body: createLiveStreamBody,
    status: 201,
    response: liveStreamSchema,
    handler: async ({ app, auth, body }) => presentLiveStream(await app.services.liveStreams.create(auth.scope, body)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/live-streams',
    operationId: 'listLiveStreams',
    summary: 'List live streams',
    description: 'The live streams of the key’s environment, newest first, one page at a time.',
    tag,
    auth: 'key',
    query: pageQuery,
    response: pageOf(liveStreamSchema),
    handler: ({ app, auth, query }) => presentLiveStreamPage(app.services.liveStreams.list(auth.scope, query)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/live-streams/{id}',
    operationId: 'getLiveStream',
    summary: 'Get a live stream',
    description: 'One live stream of the key’s environment with its status, room, conversation, hosts and times.',
    tag,
    auth: 'key',
    response: liveStreamSchema,
    errors: notFound,
    handler: ({ app, auth, params }) => presentLiveStream(app.services.liveStreams.get(auth.scope, params.id)),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/live-streams/{id}',
    operationId: 'updateLiveStream',
    summary: 'Update a live stream',
    description:
      'Changes the title or metadata of a live stream that has not ended; its status changes only through start and end.',
    tag,
    auth: 'key',
    body: updateLiveStreamBody,
    response: liveStreamSchema,
    errors: notFound,
    handler: ({ app, auth, params, body }) =>
      presentLiveStream(app.services.liveStreams.update(auth.scope, params.id, body)),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/live-streams/{id}/start',
    operationId: 'startLiveStream',
    summary: 'Start a live stream',
    description: 'CREATED → LIVE. Starting a LIVE or ENDED stream is 409.',
    tag,
    auth: 'key',
    response: liveStreamSchema,
    errors: { ...notFound, ...stateConflict },
    handler: ({ app, auth, params }) =>
      presentLiveStream(app.services.liveStreams.transition(auth.scope, params.id, 'start')),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/live-streams/{id}/end',
    operationId: 'endLiveStream',
    summary: 'End a live stream',
    description:
      'CREATED or LIVE → ENDED; everyone in the room is disconnected (signaling close code 4410) and no RTC token ' +
      'joins the room again. Ending an ENDED stream is 409.',
    tag,
    auth: 'key',
    response: liveStreamSchema,
    errors: { ...notFound, ...stateConflict },
    handler: ({ app, auth, params }) =>
      presentLiveStream(app.services.liveStreams.transition(auth.scope, params.id, 'end')),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/live-streams/{id}/hosts',
    operationId: 'addLiveStreamHost',
    summary: 'Add a host',
    description:
      'Returns a host credential: an RTC token with full publish rights and a chat token with scope ADMIN (HOST) or ' +
      'MODERATOR (CO_HOST); the host joins the conversation. With `invitedBy`, only a HOST may invite.',
    tag,
    auth: 'key',
    body: addHostBody,
    status: 201,
    response: hostCredentialSchema,
    errors: { ...notFound, ...stateConflict, SERVICE_PERMISSION_DENIED: '`invitedBy` is not a HOST of the stream.' },
    handler: async ({ app, auth, params, body }) => {
      const minted = await app.services.liveStreams.addHost(auth.scope, params.id, body);
      return { ...presentCredential(minted), role: minted.role };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/live-streams/{id}/hosts/{identity}',
    operationId: 'removeLiveStreamHost',
    summary: 'Remove a host',
    description:
      'With `?removedBy=`, only a HOST may remove another host (anyone may remove themselves). The host is ' +
      'disconnected (signaling close code 4403) and their host credential no longer joins the room.',
    tag,
    auth: 'key',
    query: removeHostQuery,
    status: 204,
    errors: {
      SERVICE_HOST_NOT_FOUND: 'No such stream, or not a host.',
      SERVICE_PERMISSION_DENIED: '`removedBy` is not a HOST.',
    },
    handler: async ({ app, auth, params, query }) => {
      await app.services.liveStreams.removeHost(auth.scope, params.id, params.identity, query.removedBy);
      return undefined;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/live-streams/{id}/viewer-tokens',
    operationId: 'createViewerToken',
    summary: 'Issue a viewer credential',
    description:
      'Body `{identity}` only: any other field (such as `role`) is refused. Returns an RTC token with `publish`, ' +
      '`publishAudio`, `publishVideo` and `publishData` all false, and a chat token with scope MEMBER.',
    tag,
    auth: 'key',
    body: viewerTokenBody,
    status: 201,
    response: viewerCredentialSchema,
    errors: { ...notFound, ...stateConflict },
    handler: async ({ app, auth, params, body }) =>
      presentCredential(await app.services.liveStreams.viewerToken(auth.scope, params.id, body.identity)),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/live-streams/{id}/leave',
    operationId: 'leaveLiveStream',
    summary: 'Record a participant leaving',
    description:
      'Records that a host or viewer left: closes their signaling connection (1000); their credential no longer joins the room (4403) until ' +
      'a new one is issued.',
    tag,
    auth: 'key',
    body: leaveBody,
    status: 204,
    errors: { SERVICE_PARTICIPANT_NOT_FOUND: 'No such stream, or the identity is not in it.' },
    handler: ({ app, auth, params, body }) => {
      app.services.liveStreams.leave(auth.scope, params.id, body.identity);
      return undefined;
    },
  }),
];

export const liveStreamRoutes = [...keyRoutes, ...dashboardLiveStreamRoutes];
