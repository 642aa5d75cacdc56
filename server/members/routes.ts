import { userActor } from '../audit/actor.js';
import { defineRoute, type ProjectAuth } from '../http/route.js';
import { listOf } from '../shared/schemas.js';
import { presentInvitation, presentMember } from './presenter.js';
import { addMemberBody, createInvitationBody, invitationSchema, memberSchema, updateMemberBody } from './schemas.js';
import type { ActingMember } from './service.js';

const tag = 'Members';

const acting = (auth: ProjectAuth): ActingMember => ({
  actor: userActor(auth),
  projectId: auth.member.projectId,
  role: auth.member.role,
});

export const memberRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/members',
    operationId: 'listMembers',
    summary: 'List members',
    description: 'Members with their role and the capabilities it grants.',
    tag,
    auth: 'project',
    capability: 'members:read',
    response: listOf(memberSchema),
    handler: async ({ app, params }) => ({ data: (await app.services.members.list(params.id)).map(presentMember) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/members',
    operationId: 'addMember',
    summary: 'Add a member',
    description:
      'Adds an existing account by email. An address without an account answers 404 and creates nothing: invite it ' +
      'instead (`POST /v1/projects/{id}/invitations`). Only an OWNER may add an OWNER.',
    tag,
    auth: 'project',
    capability: 'members:manage',
    body: addMemberBody,
    status: 201,
    response: memberSchema,
    errors: {
      SERVICE_USER_NOT_FOUND: 'No account uses the address.',
      SERVICE_MEMBER_EXISTS: 'Already a member.',
    },
    handler: async ({ app, auth, body }) => presentMember(await app.services.members.add(acting(auth), body)),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/projects/{id}/members/{userId}',
    operationId: 'updateMember',
    summary: 'Change a member’s role',
    description:
      'Only an OWNER may make or unmake an OWNER. Demoting the last OWNER is refused with 400 SERVICE_VALIDATION_FAILED.',
    tag,
    auth: 'project',
    capability: 'members:manage',
    body: updateMemberBody,
    response: memberSchema,
    errors: { SERVICE_MEMBER_NOT_FOUND: 'Not a member.' },
    handler: async ({ app, auth, params, body }) =>
      presentMember(await app.services.members.setRole(acting(auth), params.userId, body.role)),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/projects/{id}/members/{userId}',
    operationId: 'removeMember',
    summary: 'Remove a member',
    description: 'Only an OWNER may remove an OWNER; the last OWNER cannot be removed (400 SERVICE_VALIDATION_FAILED).',
    tag,
    auth: 'project',
    capability: 'members:manage',
    status: 204,
    errors: { SERVICE_MEMBER_NOT_FOUND: 'Not a member.' },
    handler: async ({ app, auth, params }) => {
      await app.services.members.remove(acting(auth), params.userId);
      return undefined;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/projects/{id}/invitations',
    operationId: 'createInvitation',
    summary: 'Invite someone without an account',
    description:
      'Makes a signed invitation for an address that has no account yet: registering with it (`invitation` in ' +
      '`POST /v1/auth/register`) creates the account and makes it a member with the role given. This is how a team ' +
      'adds colleagues on a server whose registration policy is `first-only`. The token is shown this once and ' +
      'cannot be used twice (the address then has an account). Only an OWNER may invite an OWNER.',
    tag,
    auth: 'project',
    capability: 'members:manage',
    body: createInvitationBody,
    status: 201,
    response: invitationSchema,
    errors: { SERVICE_ACCOUNT_EXISTS: 'The address already has an account: add it as a member.' },
    handler: async ({ app, auth, body }) =>
      presentInvitation(await app.services.invitations.invite(acting(auth), body)),
  }),
];
