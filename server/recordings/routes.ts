import { userActor } from '../audit/actor.js';
import { defineRoute } from '../http/route.js';
import { listOf } from '../shared/schemas.js';
import { presentRecording } from './presenter.js';
import { harSchema, recordingSchema, startRecordingBody } from './schemas.js';

const tag = 'Projects';
const NOT_FOUND = { SERVICE_RECORDING_NOT_FOUND: 'No recording with this id in the environment.' };

export const recordingRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/environment/recordings',
    operationId: 'startEnvironmentRecording',
    summary: 'Start recording an environment',
    description:
      'Records `?environment=` (development when omitted) until stopped or a limit ends it (`maxBytes`, default 10 ' +
      'MiB; `maxDurationSeconds`, default 15 minutes): REST calls made with its keys and tokens, its realtime and ' +
      'signaling frames both ways with each socket’s opening and closing, its webhook delivery attempts, each with ' +
      'wall and test-clock time. Secrets are replaced by `[redacted]` before anything is stored. Download it as HAR ' +
      '1.2. One recording at a time per environment. Production only when the server was started with ' +
      '`--allow-production-recording`. Audited (`environment.recording_started`).',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    body: startRecordingBody,
    status: 201,
    response: recordingSchema,
    errors: {
      SERVICE_PRODUCTION_ENVIRONMENT: 'Production, which this server does not allow to be recorded.',
      SERVICE_RECORDING_IN_PROGRESS: 'The environment is being recorded already.',
    },
    handler: async ({ app, auth, body }) =>
      presentRecording(await app.services.recordings.start(userActor(auth), auth.scope, body)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/environment/recordings',
    operationId: 'listEnvironmentRecordings',
    summary: 'List an environment’s recordings',
    description: 'Newest first, running or ended.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: listOf(recordingSchema),
    handler: async ({ app, auth }) => ({
      data: (await app.services.recordings.list(auth.scope)).map(presentRecording),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/environment/recordings/{recordingId}',
    operationId: 'getEnvironmentRecording',
    summary: 'Get a recording',
    description: 'Its state (`endReason` says whether a limit ended it), limits and what it took so far.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: recordingSchema,
    errors: NOT_FOUND,
    handler: async ({ app, auth, params }) =>
      presentRecording(await app.services.recordings.get(auth.scope, params.recordingId)),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/environment/recordings/{recordingId}/stop',
    operationId: 'stopEnvironmentRecording',
    summary: 'Stop a recording',
    description:
      'Ends it on every server (what another server took in its last tenth of a second may be left out). Answers ' +
      'the recording; one that had ended already is answered as it is. Audited (`environment.recording_stopped`).',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    response: recordingSchema,
    errors: NOT_FOUND,
    handler: async ({ app, auth, params }) =>
      presentRecording(await app.services.recordings.stop(userActor(auth), auth.scope, params.recordingId)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/environment/recordings/{recordingId}/har',
    operationId: 'downloadEnvironmentRecording',
    summary: 'Download a recording as HAR',
    description:
      'HAR 1.2, which browsers’ developer tools and HAR viewers open: REST calls as entries, each socket as one ' +
      'entry with `_webSocketMessages` (`{type: "send"|"receive", time, opcode, data}`, as Chrome DevTools writes ' +
      'them), webhook attempts as entries with `_switchboardKind: "webhook"`, the test-clock time in `_testClock`. ' +
      'A running recording answers what it took so far.',
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: harSchema,
    errors: NOT_FOUND,
    handler: async ({ app, auth, params }) => app.services.recordings.har(auth.scope, params.recordingId),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/projects/{id}/environment/recordings/{recordingId}',
    operationId: 'deleteEnvironmentRecording',
    summary: 'Delete a recording',
    description: 'With what it took; a running one stops. Audited (`environment.recording_deleted`).',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    status: 204,
    errors: NOT_FOUND,
    handler: async ({ app, auth, params }) => {
      await app.services.recordings.remove(userActor(auth), auth.scope, params.recordingId);
      return undefined;
    },
  }),
];
