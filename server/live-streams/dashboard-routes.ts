import { userActor } from '../audit/actor.js';
import { defineRoute } from '../http/route.js';
import { pageQuery } from '../shared/pagination.js';
import { pageOf } from '../shared/schemas.js';
import { presentCredential, presentLiveStream, presentLiveStreamPage, presentParticipant } from './presenter.js';
import { notFound, stateConflict, tag } from './route-docs.js';
import {
  createLiveStreamBody,
  dashboardAddHostBody,
  hostCredentialSchema,
  liveStreamParticipantSchema,
  liveStreamSchema,
  participantsQuery,
  updateLiveStreamBody,
  viewerCredentialSchema,
  viewerTokenBody,
} from './schemas.js';

/** Dashboard routes: `?environment=` (default development); changes need live-streams:write and are audited. */
export const dashboardLiveStreamRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/live-streams',
    operationId: 'listProjectLiveStreams',
    summary: 'List live streams (dashboard)',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    query: pageQuery,
    response: pageOf(liveStreamSchema),
    handler: ({ app, auth, query }) => presentLiveStreamPage(app.services.liveStreams.list(auth.scope, query)),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/live-streams',
    operationId: 'createProjectLiveStream',
    summary: 'Create a live stream (dashboard)',
    tag,
    auth: 'project-environment',
    capability: 'live-streams:write',
    body: createLiveStreamBody,
    status: 201,
    response: liveStreamSchema,
    handler: async ({ app, auth, body }) =>
      presentLiveStream(await app.services.liveStreams.create(auth.scope, body, userActor(auth))),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/live-streams/{streamId}',
    operationId: 'getProjectLiveStream',
    summary: 'Get a live stream (dashboard)',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: liveStreamSchema,
    errors: notFound,
    handler: ({ app, auth, params }) => presentLiveStream(app.services.liveStreams.get(auth.scope, params.streamId)),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/projects/{id}/live-streams/{streamId}',
    operationId: 'updateProjectLiveStream',
    summary: 'Update a live stream (dashboard)',
    tag,
    auth: 'project-environment',
    capability: 'live-streams:write',
    body: updateLiveStreamBody,
    response: liveStreamSchema,
    errors: notFound,
    handler: ({ app, auth, params, body }) =>
      presentLiveStream(app.services.liveStreams.update(auth.scope, params.streamId, body, userActor(auth))),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/live-streams/{streamId}/end',
    operationId: 'endProjectLiveStream',
    summary: 'End a live stream (dashboard)',
    tag,
    auth: 'project-environment',
    capability: 'live-streams:write',
    response: liveStreamSchema,
    errors: { ...notFound, ...stateConflict },
    handler: ({ app, auth, params }) =>
      presentLiveStream(app.services.liveStreams.transition(auth.scope, params.streamId, 'end', userActor(auth))),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/live-streams/{streamId}/participants',
    operationId: 'listProjectLiveStreamParticipants',
    summary: 'List hosts and viewers (dashboard)',
    description:
      'Everyone the stream issued a credential to, by identity (A→Z), one page at a time: role, when the ' +
      'credential was issued, when they were removed or left, and whether they are in the room now.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    query: participantsQuery,
    response: pageOf(liveStreamParticipantSchema),
    errors: notFound,
    handler: ({ app, auth, params, query }) => {
      const page = app.services.liveStreams.participants(auth.scope, params.streamId, query);
      return { data: page.rows.map(presentParticipant), nextCursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/live-streams/{streamId}/hosts',
    operationId: 'addProjectLiveStreamHost',
    summary: 'Add a host (dashboard)',
    description:
      'As `POST /v1/live-streams/{id}/hosts`, for the member’s project: returns a host credential (shown once). ' +
      'No `invitedBy`: the member acts for the project.',
    tag,
    auth: 'project-environment',
    capability: 'live-streams:write',
    body: dashboardAddHostBody,
    status: 201,
    response: hostCredentialSchema,
    errors: { ...notFound, ...stateConflict },
    handler: async ({ app, auth, params, body }) => {
      const minted = await app.services.liveStreams.addHost(auth.scope, params.streamId, body, userActor(auth));
      return { ...presentCredential(minted), role: minted.role };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/projects/{id}/live-streams/{streamId}/hosts/{identity}',
    operationId: 'removeProjectLiveStreamHost',
    summary: 'Remove a host (dashboard)',
    description: 'The host is disconnected (signaling close code 4403) and their host credential no longer joins.',
    tag,
    auth: 'project-environment',
    capability: 'live-streams:write',
    status: 204,
    errors: { ...notFound, SERVICE_HOST_NOT_FOUND: 'The identity is not a host of the stream.' },
    handler: async ({ app, auth, params }) => {
      await app.services.liveStreams.removeHost(
        auth.scope,
        params.streamId,
        params.identity,
        undefined,
        userActor(auth),
      );
      return undefined;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/live-streams/{streamId}/viewer-tokens',
    operationId: 'createProjectViewerToken',
    summary: 'Issue a viewer credential (dashboard)',
    description: 'Body `{identity}` only, as `POST /v1/live-streams/{id}/viewer-tokens`: any other field is refused.',
    tag,
    auth: 'project-environment',
    capability: 'live-streams:write',
    body: viewerTokenBody,
    status: 201,
    response: viewerCredentialSchema,
    errors: {
      ...notFound,
      ...stateConflict,
      SERVICE_ALREADY_HOST: 'The identity is a host: hosts use their host credential.',
    },
    handler: async ({ app, auth, params, body }) =>
      presentCredential(
        await app.services.liveStreams.viewerToken(auth.scope, params.streamId, body.identity, userActor(auth)),
      ),
  }),
];
