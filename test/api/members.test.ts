import { describe, expect, it } from 'vitest';
import { addMember, createProject, expectError, registerUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/use-test-server.js';

const sb = useTestServer();

const ALL = [
  'project:read',
  'project:write',
  'project:delete',
  'members:read',
  'members:manage',
  'keys:read',
  'keys:manage',
  'webhooks:read',
  'webhooks:manage',
  'rooms:write',
  'chat:read',
  'live-streams:write',
  'usage:read',
  'audit:read',
  'billing:manage',
];

/** A project with one member of each role. */
async function team() {
  const owner = await registerUser(sb.api);
  const project = await createProject(sb.api, owner);
  const members: Record<string, TestUser> = { OWNER: owner };
  for (const role of ['ADMIN', 'DEVELOPER', 'VIEWER', 'BILLING']) {
    members[role] = await registerUser(sb.api);
    await addMember(sb.api, project.id, owner, members[role], role);
  }
  return { project, ...members } as unknown as { project: { id: string } } & Record<
    'OWNER' | 'ADMIN' | 'DEVELOPER' | 'VIEWER' | 'BILLING',
    TestUser
  >;
}

describe('member listing', () => {
  it('returns each member with userId, email, role and the exact capabilities of the role', async () => {
    const t = await team();
    const res = await sb.api.get(`/v1/projects/${t.project.id}/members`, { token: t.OWNER.token });
    expect(res.status).toBe(200);
    const byRole = Object.fromEntries(
      res.body.data.map((m: { role: string; capabilities: string[] }) => [m.role, m.capabilities]),
    );
    expect(byRole.OWNER).toEqual(ALL);
    expect(byRole.ADMIN).toEqual(ALL.filter((c) => c !== 'project:delete'));
    expect(byRole.DEVELOPER).toEqual([
      'project:read',
      'keys:read',
      'keys:manage',
      'webhooks:read',
      'webhooks:manage',
      'rooms:write',
      'chat:read',
      'live-streams:write',
      'usage:read',
    ]);
    expect(byRole.VIEWER).toEqual([
      'project:read',
      'members:read',
      'keys:read',
      'webhooks:read',
      'chat:read',
      'usage:read',
      'audit:read',
    ]);
    expect(byRole.BILLING).toEqual(['usage:read', 'billing:manage']);
    expect(res.body.data.find((m: { role: string }) => m.role === 'VIEWER')).toMatchObject({
      userId: t.VIEWER.id,
      email: t.VIEWER.email,
    });
  });
});

describe('role checks on control-plane routes', () => {
  // [method, path (under the project), body, capability it needs]
  const routes: [string, string, unknown, string][] = [
    ['PATCH', '', { name: 'Renamed' }, 'project:write'],
    ['GET', '/members', undefined, 'members:read'],
    ['POST', '/members', { email: 'nobody@example.test', role: 'VIEWER' }, 'members:manage'],
    ['GET', '/api-keys', undefined, 'keys:read'],
    ['POST', '/api-keys', { name: 'k' }, 'keys:manage'],
    ['GET', '/audit-logs', undefined, 'audit:read'],
  ];
  const holds: Record<string, string[]> = {
    ADMIN: ALL.filter((c) => c !== 'project:delete'),
    DEVELOPER: ['keys:read', 'keys:manage'],
    VIEWER: ['members:read', 'keys:read', 'audit:read'],
    BILLING: [],
  };

  it('answers 403 naming role and capability exactly where the role lacks it', async () => {
    const t = await team();
    for (const role of ['ADMIN', 'DEVELOPER', 'VIEWER', 'BILLING'] as const) {
      for (const [method, suffix, body, capability] of routes) {
        const res = await sb.api.request(method, `/v1/projects/${t.project.id}${suffix}`, {
          token: t[role].token,
          body,
        });
        const what = `${role} ${method} ${suffix} (${capability})`;
        if (holds[role].includes(capability)) {
          expect(res.status, what).not.toBe(403);
          expect(res.status, what).toBeLessThan(500);
        } else {
          expectError(res, 403, 'SERVICE_PERMISSION_DENIED');
          expect(res.body.message, what).toContain(role);
          expect(res.body.message, what).toContain(capability);
        }
      }
    }
  });
});

describe('adding members', () => {
  it('refuses an address with no account with 404 and creates nothing', async () => {
    const t = await team();
    const res = await sb.api.post(`/v1/projects/${t.project.id}/members`, {
      token: t.OWNER.token,
      body: { email: 'no-account@example.test', role: 'VIEWER' },
    });
    expectError(res, 404, 'SERVICE_USER_NOT_FOUND');
    expect(res.body.message).toContain('no-account@example.test');
    const members = await sb.api.get(`/v1/projects/${t.project.id}/members`, { token: t.OWNER.token });
    expect(members.body.data).toHaveLength(5);
    // Nothing was created on the side either: registering that address afterwards is a fresh account.
    const later = await sb.api.post('/v1/auth/register', {
      body: { email: 'no-account@example.test', password: 'long enough' },
    });
    expect(later.status).toBe(201);
  });

  it('refuses an existing member with 409', async () => {
    const t = await team();
    const res = await sb.api.post(`/v1/projects/${t.project.id}/members`, {
      token: t.OWNER.token,
      body: { email: t.VIEWER.email.toUpperCase(), role: 'ADMIN' },
    });
    expectError(res, 409, 'SERVICE_MEMBER_EXISTS');
  });

  it('refuses an unknown role with 400', async () => {
    const t = await team();
    const newcomer = await registerUser(sb.api);
    const res = await sb.api.post(`/v1/projects/${t.project.id}/members`, {
      token: t.OWNER.token,
      body: { email: newcomer.email, role: 'SUPERUSER' },
    });
    expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
    expect(res.body.message).toContain('role');
  });

  it('lets an ADMIN add members but not owners; an OWNER may add an owner', async () => {
    const t = await team();
    const a = await registerUser(sb.api);
    const b = await registerUser(sb.api);
    const asAdmin = await sb.api.post(`/v1/projects/${t.project.id}/members`, {
      token: t.ADMIN.token,
      body: { email: a.email, role: 'DEVELOPER' },
    });
    expect(asAdmin.status).toBe(201);
    expect(asAdmin.body).toMatchObject({ userId: a.id, role: 'DEVELOPER' });

    const ownerByAdmin = await sb.api.post(`/v1/projects/${t.project.id}/members`, {
      token: t.ADMIN.token,
      body: { email: b.email, role: 'OWNER' },
    });
    expectError(ownerByAdmin, 403, 'SERVICE_PERMISSION_DENIED');
    expect(ownerByAdmin.body.message).toContain('ADMIN');

    const ownerByOwner = await sb.api.post(`/v1/projects/${t.project.id}/members`, {
      token: t.OWNER.token,
      body: { email: b.email, role: 'OWNER' },
    });
    expect(ownerByOwner.status).toBe(201);
  });
});

describe('owner rules', () => {
  it('lets only an owner promote to, demote from, or remove an OWNER', async () => {
    const t = await team();
    const base = `/v1/projects/${t.project.id}/members`;
    expectError(
      await sb.api.patch(`${base}/${t.VIEWER.id}`, { token: t.ADMIN.token, body: { role: 'OWNER' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expectError(
      await sb.api.patch(`${base}/${t.OWNER.id}`, { token: t.ADMIN.token, body: { role: 'VIEWER' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expectError(
      await sb.api.delete(`${base}/${t.OWNER.id}`, { token: t.ADMIN.token }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );

    const promoted = await sb.api.patch(`${base}/${t.VIEWER.id}`, { token: t.OWNER.token, body: { role: 'OWNER' } });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ role: 'OWNER', capabilities: ALL });
    // With two owners, one may step down or be removed by the other.
    expect(
      (await sb.api.patch(`${base}/${t.OWNER.id}`, { token: t.VIEWER.token, body: { role: 'ADMIN' } })).status,
    ).toBe(200);
    expect((await sb.api.delete(`${base}/${t.OWNER.id}`, { token: t.VIEWER.token })).status).toBe(204);
  });

  it('never leaves a project without an owner: demoting or removing the last one is 400', async () => {
    const t = await team();
    const base = `/v1/projects/${t.project.id}/members`;
    const demote = await sb.api.patch(`${base}/${t.OWNER.id}`, { token: t.OWNER.token, body: { role: 'ADMIN' } });
    expectError(demote, 400, 'SERVICE_VALIDATION_FAILED');
    expect(demote.body.message).toMatch(/last OWNER/);
    expectError(
      await sb.api.delete(`${base}/${t.OWNER.id}`, { token: t.OWNER.token }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
    const members = await sb.api.get(base, { token: t.OWNER.token });
    expect(members.body.data.find((m: { userId: string }) => m.userId === t.OWNER.id).role).toBe('OWNER');
  });

  it('keeps one owner when two owners demote each other at the same time', async () => {
    const t = await team();
    const base = `/v1/projects/${t.project.id}/members`;
    await sb.api.patch(`${base}/${t.ADMIN.id}`, { token: t.OWNER.token, body: { role: 'OWNER' } });
    const results = await Promise.all([
      sb.api.patch(`${base}/${t.ADMIN.id}`, { token: t.OWNER.token, body: { role: 'VIEWER' } }),
      sb.api.patch(`${base}/${t.OWNER.id}`, { token: t.ADMIN.token, body: { role: 'VIEWER' } }),
    ]);
    const members = (await sb.api.get(base, { token: t.VIEWER.token })).body.data as { role: string }[];
    expect(members.filter((m) => m.role === 'OWNER')).toHaveLength(1);
    expect(results.map((r) => r.status).sort()).toContain(200);
  });
});

describe('changing and removing members', () => {
  it('changes a role, and the new capabilities apply at once', async () => {
    const t = await team();
    const base = `/v1/projects/${t.project.id}/members`;
    expectError(await sb.api.get(base, { token: t.DEVELOPER.token }), 403, 'SERVICE_PERMISSION_DENIED');
    const res = await sb.api.patch(`${base}/${t.DEVELOPER.id}`, { token: t.ADMIN.token, body: { role: 'VIEWER' } });
    expect(res.body).toMatchObject({ userId: t.DEVELOPER.id, role: 'VIEWER' });
    expect((await sb.api.get(base, { token: t.DEVELOPER.token })).status).toBe(200);
  });

  it('removes a member, who then gets 404 for the project', async () => {
    const t = await team();
    const res = await sb.api.delete(`/v1/projects/${t.project.id}/members/${t.VIEWER.id}`, { token: t.ADMIN.token });
    expect(res.status).toBe(204);
    expectError(
      await sb.api.get(`/v1/projects/${t.project.id}`, { token: t.VIEWER.token }),
      404,
      'SERVICE_PROJECT_NOT_FOUND',
    );
  });

  it('answers 404 SERVICE_MEMBER_NOT_FOUND for a user who is not a member', async () => {
    const t = await team();
    const outsider = await registerUser(sb.api);
    expectError(
      await sb.api.patch(`/v1/projects/${t.project.id}/members/${outsider.id}`, {
        token: t.OWNER.token,
        body: { role: 'VIEWER' },
      }),
      404,
      'SERVICE_MEMBER_NOT_FOUND',
    );
    expectError(
      await sb.api.delete(`/v1/projects/${t.project.id}/members/${outsider.id}`, { token: t.OWNER.token }),
      404,
      'SERVICE_MEMBER_NOT_FOUND',
    );
  });
});
