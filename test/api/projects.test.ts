import { describe, expect, it } from 'vitest';
import { addMember, createKey, createProject, expectError, registerUser } from '../support/factories.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

describe('projects', () => {
  it('creates a project whose creator is its OWNER member and ownerId', async () => {
    const owner = await registerUser(t.api);
    const res = await t.api.post('/v1/projects', { token: owner.token, body: { name: '  Chat app  ' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^prj_/),
      name: 'Chat app',
      ownerId: owner.id,
      role: 'OWNER',
    });
    expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const members = await t.api.get(`/v1/projects/${res.body.id}/members`, { token: owner.token });
    expect(members.body.data).toEqual([
      expect.objectContaining({ userId: owner.id, email: owner.email, role: 'OWNER' }),
    ]);
  });

  it('lists only the projects the caller is a member of, with the caller’s role', async () => {
    const alice = await registerUser(t.api);
    const bob = await registerUser(t.api);
    const mine = await createProject(t.api, alice, 'Alice’s');
    const shared = await createProject(t.api, bob, 'Bob’s shared');
    await createProject(t.api, bob, 'Bob’s private');
    await addMember(t.api, shared.id, bob, alice, 'VIEWER');
    const res = await t.api.get('/v1/projects', { token: alice.token });
    expect(res.body.data.map((p: { id: string; role: string }) => [p.id, p.role])).toEqual([
      [mine.id, 'OWNER'],
      [shared.id, 'VIEWER'],
    ]);
  });

  it('carries the caller’s capabilities, the same list the member listing shows for that member', async () => {
    const owner = await registerUser(t.api);
    const billing = await registerUser(t.api);
    const viewer = await registerUser(t.api);
    const project = await createProject(t.api, owner);
    await addMember(t.api, project.id, owner, billing, 'BILLING');
    await addMember(t.api, project.id, owner, viewer, 'VIEWER');
    const members = await t.api.get(`/v1/projects/${project.id}/members`, { token: owner.token });
    for (const user of [owner, billing, viewer]) {
      const listed = members.body.data.find((m: { userId: string }) => m.userId === user.id);
      const one = await t.api.get(`/v1/projects/${project.id}`, { token: user.token });
      const all = await t.api.get('/v1/projects', { token: user.token });
      expect(one.body.capabilities).toEqual(listed.capabilities);
      expect(all.body.data[0].capabilities).toEqual(listed.capabilities);
    }
    const forBilling = await t.api.get(`/v1/projects/${project.id}`, { token: billing.token });
    expect(forBilling.body.capabilities).toEqual(['usage:read', 'billing:manage']);
    const forViewer = await t.api.get(`/v1/projects/${project.id}`, { token: viewer.token });
    expect(forViewer.body.capabilities).toContain('keys:read');
    expect(forViewer.body.capabilities).not.toContain('keys:manage');
  });

  it('answers a non-member exactly as for a project that does not exist (404 SERVICE_PROJECT_NOT_FOUND)', async () => {
    const owner = await registerUser(t.api);
    const stranger = await registerUser(t.api);
    const project = await createProject(t.api, owner);
    for (const [method, path] of [
      ['GET', `/v1/projects/${project.id}`],
      ['PATCH', `/v1/projects/${project.id}`],
      ['DELETE', `/v1/projects/${project.id}`],
      ['GET', `/v1/projects/${project.id}/members`],
      ['GET', `/v1/projects/${project.id}/api-keys`],
      ['GET', `/v1/projects/${project.id}/audit-logs`],
    ]) {
      const forStranger = await t.api.request(method, path, {
        token: stranger.token,
        body: method === 'PATCH' ? { name: 'x' } : undefined,
      });
      const missing = await t.api.request(method, path.replace(project.id, 'prj_doesnotexist'), {
        token: owner.token,
        body: method === 'PATCH' ? { name: 'x' } : undefined,
      });
      expectError(forStranger, 404, 'SERVICE_PROJECT_NOT_FOUND');
      expectError(missing, 404, 'SERVICE_PROJECT_NOT_FOUND');
      expect(forStranger.body.message).toBe(missing.body.message);
    }
  });

  it('lets every member read the project, and only project:write rename it', async () => {
    const owner = await registerUser(t.api);
    const project = await createProject(t.api, owner, 'Old');
    const billing = await registerUser(t.api);
    const developer = await registerUser(t.api);
    await addMember(t.api, project.id, owner, billing, 'BILLING');
    await addMember(t.api, project.id, owner, developer, 'DEVELOPER');
    expect((await t.api.get(`/v1/projects/${project.id}`, { token: billing.token })).body).toMatchObject({
      name: 'Old',
      role: 'BILLING',
    });

    const denied = await t.api.patch(`/v1/projects/${project.id}`, { token: developer.token, body: { name: 'New' } });
    expectError(denied, 403, 'SERVICE_PERMISSION_DENIED');
    expect(denied.body.message).toContain('DEVELOPER');
    expect(denied.body.message).toContain('project:write');

    const renamed = await t.api.patch(`/v1/projects/${project.id}`, { token: owner.token, body: { name: 'New' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('New');
  });

  it('lets only an OWNER delete, and deleting takes keys and access with it', async () => {
    const owner = await registerUser(t.api);
    const admin = await registerUser(t.api);
    const project = await createProject(t.api, owner);
    await addMember(t.api, project.id, owner, admin, 'ADMIN');
    const key = await createKey(t.api, project.id, owner);
    // Used once before the deletion, so the server has it in its key cache.
    expect((await t.api.get('/v1/whoami', { token: key.key })).status).toBe(200);

    const denied = await t.api.delete(`/v1/projects/${project.id}`, { token: admin.token });
    expectError(denied, 403, 'SERVICE_PERMISSION_DENIED');
    expect(denied.body.message).toContain('ADMIN');
    expect(denied.body.message).toContain('project:delete');

    expect((await t.api.delete(`/v1/projects/${project.id}`, { token: owner.token })).status).toBe(204);
    expectError(
      await t.api.get(`/v1/projects/${project.id}`, { token: owner.token }),
      404,
      'SERVICE_PROJECT_NOT_FOUND',
    );
    expectError(await t.api.get('/v1/whoami', { token: key.key }), 401, 'SERVICE_UNAUTHENTICATED');
    expect((await t.api.get('/v1/projects', { token: admin.token })).body.data).toEqual([]);
  });

  it('validates names', async () => {
    const owner = await registerUser(t.api);
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      expectError(
        await t.api.post('/v1/projects', { token: owner.token, body: { name } }),
        400,
        'SERVICE_VALIDATION_FAILED',
      );
    }
  });
});
