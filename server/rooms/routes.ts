import type { EnvironmentScope } from '../../db/scope.js';
import { type Actor, userActor } from '../audit/actor.js';
import { toIso } from '../clock.js';
import type { AppContext } from '../context.js';
import { defineRoute } from '../http/route.js';
import { createRtcTokenBody, rtcTokenSchema } from '../rtc/schemas.js';
import { listOf, pageOf } from '../shared/schemas.js';
import { roomMediaSchema } from './media-schemas.js';
import { presentParticipant, presentRoom, presentRoomMedia } from './presenter.js';
import { createRoomBody, participantSchema, roomListQuery, roomSchema } from './schemas.js';

const tag = 'Rooms';

/** One page of rooms with their live participant counts: the key and dashboard lists alike. */
async function listRooms(app: AppContext, scope: EnvironmentScope, query: { limit: number; cursor?: string }) {
  const page = await app.services.rooms.list(scope, query);
  const counts = await Promise.all(page.rows.map((r) => app.services.signaling.count(r.id)));
  return {
    data: page.rows.map((r, i) => presentRoom(r, counts[i] ?? 0)),
    nextCursor: page.nextCursor,
  };
}
/** One room with its live participant count. */
async function roomWithCount(app: AppContext, scope: EnvironmentScope, roomId: string) {
  const room = await app.services.rooms.get(scope, roomId);
  return presentRoom(room, await app.services.signaling.count(room.id));
}
const roomNotFound = {
  SERVICE_ROOM_NOT_FOUND: 'No such room in the key’s environment, also for another environment’s room.',
};
const dashboardRoomNotFound = {
  SERVICE_ROOM_NOT_FOUND: 'No such room in `?environment=`, also for another environment’s room.',
};

/** The room's participants connected now (the key and dashboard routes alike). */
async function participantsOf(app: AppContext, scope: EnvironmentScope, roomId: string) {
  const room = await app.services.rooms.get(scope, roomId);
  return { data: (await app.services.signaling.participants(room.id)).map(presentParticipant) };
}

/** A minted token as both minting routes answer it. */
async function mintToken(
  app: AppContext,
  scope: EnvironmentScope,
  roomId: string,
  body: Parameters<AppContext['services']['rtcTokens']['mint']>[2],
  auditedBy?: Actor,
) {
  const minted = await app.services.rtcTokens.mint(scope, roomId, body, auditedBy);
  return { ...minted, expiresAt: toIso(minted.expiresAt) };
}

export const roomRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/rooms',
    operationId: 'createRoom',
    summary: 'Create a room',
    description: 'In the API key’s environment. Names are unique within an environment (409 `SERVICE_ROOM_EXISTS`).',
    tag,
    auth: 'key',
    body: createRoomBody,
    status: 201,
    response: roomSchema,
    errors: { SERVICE_ROOM_EXISTS: 'A room of that name exists in this environment.' },
    handler: async ({ app, auth, body }) => presentRoom(await app.services.rooms.create(auth.scope, body), 0),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/rooms',
    operationId: 'listRooms',
    summary: 'List rooms',
    description: 'Rooms of the API key’s environment, newest first.',
    tag,
    auth: 'key',
    query: roomListQuery,
    response: pageOf(roomSchema),
    handler: ({ app, auth, query }) => {
      return listRooms(app, auth.scope, query);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/rooms/{id}',
    operationId: 'getRoom',
    summary: 'Get a room',
    description: 'One room of the key’s environment; a room of another environment is 404, as if it did not exist.',
    tag,
    auth: 'key',
    response: roomSchema,
    errors: roomNotFound,
    handler: ({ app, auth, params }) => roomWithCount(app, auth.scope, params.id),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/rooms/{id}',
    operationId: 'deleteRoom',
    summary: 'Delete a room',
    description: 'Connected participants are disconnected (close code 4410); the name is free again.',
    tag,
    auth: 'key',
    status: 204,
    errors: roomNotFound,
    handler: async ({ app, auth, params }) => {
      await app.services.rooms.delete(auth.scope, params.id);
      return undefined;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/rooms/{id}/participants',
    operationId: 'listParticipants',
    summary: 'List participants',
    description: 'Who is connected to the room’s signaling socket now, with joined time and rights.',
    tag,
    auth: 'key',
    response: listOf(participantSchema),
    errors: roomNotFound,
    handler: ({ app, auth, params }) => participantsOf(app, auth.scope, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/rooms/{roomId}/rtc-tokens',
    operationId: 'createRtcToken',
    summary: 'Mint an RTC token',
    description:
      'A JWT for one identity in one room of the key’s environment, with claims `prj`, `env`, `room`, `identity`, ' +
      '`publish`, `publishAudio`, `publishVideo`, `publishData`, `subscribe` and `exp`. Defaults as in LiveKit: ' +
      'everything allowed unless turned off; audio and video follow `publish`.',
    tag,
    auth: 'key',
    body: createRtcTokenBody,
    status: 201,
    response: rtcTokenSchema,
    errors: roomNotFound,
    handler: ({ app, auth, params, body }) => mintToken(app, auth.scope, params.roomId, body),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/rooms',
    operationId: 'listProjectRooms',
    summary: 'List rooms (dashboard)',
    description: 'Rooms of `?environment=` (default development), newest first.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    query: roomListQuery,
    response: pageOf(roomSchema),
    handler: ({ app, auth, query }) => {
      return listRooms(app, auth.scope, query);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/rooms',
    operationId: 'createProjectRoom',
    summary: 'Create a room (dashboard)',
    description: 'In `?environment=` (default development). Audited.',
    tag,
    auth: 'project-environment',
    capability: 'rooms:write',
    body: createRoomBody,
    status: 201,
    response: roomSchema,
    errors: { SERVICE_ROOM_EXISTS: 'A room of that name exists in this environment.' },
    handler: async ({ app, auth, body }) => {
      return presentRoom(await app.services.rooms.create(auth.scope, body, userActor(auth)), 0);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/rooms/{roomId}',
    operationId: 'getProjectRoom',
    summary: 'Get a room (dashboard)',
    description: 'One room of `?environment=` (default development), with its live participant count.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: roomSchema,
    errors: dashboardRoomNotFound,
    handler: ({ app, auth, params }) => roomWithCount(app, auth.scope, params.roomId),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/projects/{id}/rooms/{roomId}',
    operationId: 'deleteProjectRoom',
    summary: 'Delete a room (dashboard)',
    description:
      'In `?environment=` (default development). Connected participants are disconnected (close code 4410); the ' +
      'name is free again. Audited (`room.deleted`).',
    tag,
    auth: 'project-environment',
    capability: 'rooms:write',
    status: 204,
    errors: dashboardRoomNotFound,
    handler: async ({ app, auth, params }) => {
      await app.services.rooms.delete(auth.scope, params.roomId, userActor(auth));
      return undefined;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/rooms/{roomId}/participants',
    operationId: 'listProjectRoomParticipants',
    summary: 'List participants (dashboard)',
    description:
      'Who is connected to the room’s signaling socket now, with joined time and rights. The live event stream’s ' +
      '`connection.opened` and `connection.closed` (kind `signaling`, with the `roomId`) say when this changes.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: listOf(participantSchema),
    errors: dashboardRoomNotFound,
    handler: ({ app, auth, params }) => participantsOf(app, auth.scope, params.roomId),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/rooms/{roomId}/media',
    operationId: 'getProjectRoomMedia',
    summary: 'Get a room’s media (dashboard)',
    description:
      'Each participant’s tracks as the server sees them now, when media goes through it (`serve --rtc-media sfu`): ' +
      'per track, its direction, kind, packets and payload bytes, packets lost and bitrate over the last 5 seconds. ' +
      'Read it again for live figures (the dashboard does every 2 s). With peer-to-peer media (`mode: "mesh"`) the ' +
      'server never sees media: no participants.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: roomMediaSchema,
    errors: {
      ...dashboardRoomNotFound,
      SERVICE_UNAVAILABLE: 'The media process did not answer within 2 s (it is starting again after a crash).',
    },
    handler: async ({ app, auth, params }) =>
      presentRoomMedia(await app.services.roomMedia.of(auth.scope, params.roomId)),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/rooms/{roomId}/rtc-tokens',
    operationId: 'createProjectRtcToken',
    summary: 'Mint an RTC token (dashboard)',
    description:
      'As `POST /v1/rooms/{roomId}/rtc-tokens`, for a room of `?environment=`: the dashboard’s token playground and ' +
      'test call. Audited (`rtc_token.created`, with the identity, rights and expiry; never the token).',
    tag,
    auth: 'project-environment',
    capability: 'rooms:write',
    body: createRtcTokenBody,
    status: 201,
    response: rtcTokenSchema,
    errors: dashboardRoomNotFound,
    handler: ({ app, auth, params, body }) => mintToken(app, auth.scope, params.roomId, body, userActor(auth)),
  }),
];
