import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createKey, createProject, expectError, registerUser } from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;
beforeAll(async () => {
  server = await startTestServer();
  api = client(server.url);
});
afterAll(() => server.dispose());

describe('projects', () => {
  it('creates a project whose creator is its OWNER member and ownerId', async () => {
    const owner = await registerUser(api);
    const res = await api.post('/v1/projects', { token: owner.token, body: { name: '  Chat app  ' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^prj_/),
      name: 'Chat app',
      ownerId: owner.id,
      role: 'OWNER',
    });
    expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const members = await api.get(`/v1/projects/${res.body.id}/members`, { token: owner.token });
    expect(members.body.data).toEqual([
      expect.objectContaining({ userId: owner.id, email: owner.email, role: 'OWNER' }),
    ]);
  });

  it('lists only the projects the caller is a member of, with the caller’s role', async () => {
    const alice = await registerUser(api);
    const bob = await registerUser(api);
    const mine = await createProject(api, alice, 'Alice’s');
    const shared = await createProject(api, bob, 'Bob’s shared');
    await createProject(api, bob, 'Bob’s private');
    await addMember(api, shared.id, bob, alice, 'VIEWER');
    const res = await api.get('/v1/projects', { token: alice.token });
    expect(res.body.data.map((p: { id: string; role: string }) => [p.id, p.role])).toEqual([
      [mine.id, 'OWNER'],
      [shared.id, 'VIEWER'],
    ]);
  });

  it('answers a non-member exactly as for a project that does not exist (404 SERVICE_PROJECT_NOT_FOUND)', async () => {
    const owner = await registerUser(api);
    const stranger = await registerUser(api);
    const project = await createProject(api, owner);
    for (const [method, path] of [
      ['GET', `/v1/projects/${project.id}`],
      ['PATCH', `/v1/projects/${project.id}`],
      ['DELETE', `/v1/projects/${project.id}`],
      ['GET', `/v1/projects/${project.id}/members`],
      ['GET', `/v1/projects/${project.id}/api-keys`],
      ['GET', `/v1/projects/${project.id}/audit-logs`],
    ]) {
      const forStranger = await api.request(method, path, {
        token: stranger.token,
        body: method === 'PATCH' ? { name: 'x' } : undefined,
      });
      const missing = await api.request(method, path.replace(project.id, 'prj_doesnotexist'), {
        token: owner.token,
        body: method === 'PATCH' ? { name: 'x' } : undefined,
      });
      expectError(forStranger, 404, 'SERVICE_PROJECT_NOT_FOUND');
      expectError(missing, 404, 'SERVICE_PROJECT_NOT_FOUND');
      expect(forStranger.body.message).toBe(missing.body.message);
    }
  });

  it('lets every member read the project, and only project:write rename it', async () => {
    const owner = await registerUser(api);
    const project = await createProject(api, owner, 'Old');
    const billing = await registerUser(api);
    const developer = await registerUser(api);
    await addMember(api, project.id, owner, billing, 'BILLING');
    await addMember(api, project.id, owner, developer, 'DEVELOPER');
    expect((await api.get(`/v1/projects/${project.id}`, { token: billing.token })).body).toMatchObject({
      name: 'Old',
      role: 'BILLING',
    });

    const denied = await api.patch(`/v1/projects/${project.id}`, { token: developer.token, body: { name: 'New' } });
    expectError(denied, 403, 'SERVICE_PERMISSION_DENIED');
    expect(denied.body.message).toContain('DEVELOPER');
    expect(denied.body.message).toContain('project:write');

    const renamed = await api.patch(`/v1/projects/${project.id}`, { token: owner.token, body: { name: 'New' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('New');
  });

  it('lets only an OWNER delete, and deleting takes keys and access with it', async () => {
    const owner = await registerUser(api);
    const admin = await registerUser(api);
    const project = await createProject(api, owner);
    await addMember(api, project.id, owner, admin, 'ADMIN');
    const key = await createKey(api, project.id, owner);

    const denied = await api.delete(`/v1/projects/${project.id}`, { token: admin.token });
    expectError(denied, 403, 'SERVICE_PERMISSION_DENIED');
    expect(denied.body.message).toContain('ADMIN');
    expect(denied.body.message).toContain('project:delete');

    expect((await api.delete(`/v1/projects/${project.id}`, { token: owner.token })).status).toBe(204);
    expectError(await api.get(`/v1/projects/${project.id}`, { token: owner.token }), 404, 'SERVICE_PROJECT_NOT_FOUND');
    expectError(await api.get('/v1/whoami', { token: key.key }), 401, 'SERVICE_UNAUTHENTICATED');
    expect((await api.get('/v1/projects', { token: admin.token })).body.data).toEqual([]);
  });

  it('validates names', async () => {
    const owner = await registerUser(api);
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      expectError(
        await api.post('/v1/projects', { token: owner.token, body: { name } }),
        400,
        'SERVICE_VALIDATION_FAILED',
      );
    }
  });
});
