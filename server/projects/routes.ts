import { actorOf, userActor } from '../audit/actor.js';
import { defineRoute } from '../http/route.js';
import { listOf } from '../shared/schemas.js';
import { presentProject } from './presenter.js';
import { createProjectBody, projectSchema, updateProjectBody } from './schemas.js';

const tag = 'Projects';

export const projectRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/projects',
    operationId: 'createProject',
    summary: 'Create a project',
    description: 'The caller becomes its first OWNER. A project has exactly three environments.',
    tag,
    auth: 'session',
    body: createProjectBody,
    status: 201,
    response: projectSchema,
    handler: async ({ app, auth, body }) =>
      presentProject(await app.services.projects.create(userActor(auth), body), 'OWNER'),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects',
    operationId: 'listProjects',
    summary: 'List your projects',
    description: 'Projects the caller is a member of, with the caller’s role in each.',
    tag,
    auth: 'session',
    response: listOf(projectSchema),
    handler: async ({ app, auth }) => ({
      data: (await app.services.projects.listForUser(auth.user.id)).map((p) => presentProject(p, p.role)),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}',
    operationId: 'getProject',
    summary: 'Get a project',
    description: 'Any member may read the project record. Non-members get 404, as for a project that does not exist.',
    tag,
    auth: 'project',
    capability: null,
    response: projectSchema,
    handler: async ({ app, auth, params }) =>
      presentProject(await app.services.projects.get(params.id), auth.member.role),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/projects/{id}',
    operationId: 'updateProject',
    summary: 'Rename a project',
    tag,
    auth: 'project',
    capability: 'project:write',
    body: updateProjectBody,
    response: projectSchema,
    handler: async ({ app, auth, params, body }) =>
      presentProject(await app.services.projects.update(actorOf(auth), params.id, body), auth.member.role),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/projects/{id}',
    operationId: 'deleteProject',
    summary: 'Delete a project',
    description: 'Deletes the project with all its environments, keys, members, data and audit log. Owners only.',
    tag,
    auth: 'project',
    capability: 'project:delete',
    status: 204,
    handler: async ({ app, auth, params }) => {
      await app.services.projects.delete(actorOf(auth), params.id);
      return undefined;
    },
  }),
];
