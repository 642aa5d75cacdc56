import { userActor } from '../audit/actor.js';
import { defineRoute } from '../http/route.js';
import { listOf } from '../shared/schemas.js';
import { presentSnapshot, presentSnapshotRestore } from './presenter.js';
import { environmentSnapshotSchema, saveSnapshotBody, snapshotRestoreSchema } from './schemas.js';

const tag = 'Projects';
const path = '/v1/projects/{id}/environment/snapshots';
const PRODUCTION = { SERVICE_PRODUCTION_ENVIRONMENT: 'The environment is production, which has no snapshots.' };
const NOT_FOUND = { SERVICE_SNAPSHOT_NOT_FOUND: 'No snapshot of that name in the environment.' };
const holds =
  'A snapshot holds exactly what an environment reset removes: rooms, conversations with their members, messages, ' +
  'reactions, read state, attachments with their bytes, live streams, connection records, webhook deliveries and ' +
  'their attempts, telemetry, metrics and errors. Keys, webhook endpoints, members, the test clock, faults and the ' +
  'audit log are neither saved nor restored.';

export const environmentSnapshotRoutes = [
  defineRoute({
    method: 'get',
    path,
    operationId: 'listEnvironmentSnapshots',
    summary: 'List an environment’s snapshots',
    description: `The snapshots saved of \`?environment=\` (development when omitted), by name. ${holds}`,
    tag,
    auth: 'project-environment',
    capability: 'project:read',
    response: listOf(environmentSnapshotSchema),
    handler: async ({ app, auth }) => ({
      data: (await app.services.environmentSnapshots.list(auth.scope)).map(presentSnapshot),
    }),
  }),
  defineRoute({
    method: 'post',
    path,
    operationId: 'saveEnvironmentSnapshot',
    summary: 'Save a snapshot of an environment',
    description:
      `Saves what the environment holds now under \`name\`, in one consistent read, to restore later. ${holds} ` +
      'Development and staging only; audited (`environment.snapshot_saved`).',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    body: saveSnapshotBody,
    status: 201,
    response: environmentSnapshotSchema,
    errors: {
      ...PRODUCTION,
      SERVICE_SNAPSHOT_EXISTS: 'A snapshot of that name exists and `replace` was not set.',
    },
    handler: async ({ app, auth, body }) =>
      presentSnapshot(await app.services.environmentSnapshots.save(userActor(auth), auth.scope, body)),
  }),
  defineRoute({
    method: 'post',
    path: `${path}/{name}/restore`,
    operationId: 'restoreEnvironmentSnapshot',
    summary: 'Restore a snapshot of an environment',
    description:
      'Replaces the environment’s runtime data with the snapshot’s, in one transaction: what it holds goes as in a ' +
      'reset, and the snapshot’s rows come back exactly as saved (ids, times, attachment bytes). Webhook ' +
      'deliveries of endpoints deleted since are left out; the endpoints’ counts of consecutive failures start again ' +
      'at 0. The environment’s realtime and signaling sockets are closed with code 4205 and the reason ' +
      '`environment reset`, and dashboards watching hear an `environment.reset` naming the snapshot. The snapshot ' +
      'stays, to restore again. Development and staging only; audited (`environment.snapshot_restored`).',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    response: snapshotRestoreSchema,
    errors: { ...PRODUCTION, ...NOT_FOUND },
    handler: async ({ app, auth, params }) =>
      presentSnapshotRestore(await app.services.environmentSnapshots.restore(userActor(auth), auth.scope, params.name)),
  }),
  defineRoute({
    method: 'delete',
    path: `${path}/{name}`,
    operationId: 'deleteEnvironmentSnapshot',
    summary: 'Delete a snapshot of an environment',
    description: 'The environment itself is left as it is. Audited (`environment.snapshot_deleted`).',
    tag,
    auth: 'project-environment',
    capability: 'project:write',
    status: 204,
    errors: { ...PRODUCTION, ...NOT_FOUND },
    handler: async ({ app, auth, params }) => {
      await app.services.environmentSnapshots.delete(userActor(auth), auth.scope, params.name);
      return undefined;
    },
  }),
];
