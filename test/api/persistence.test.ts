import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError } from '../../server/index.js';
import { addMember, createKey, createProject, registerUser } from '../support/factories.js';
import { client } from '../support/http.js';
import { makeDataDir, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
afterAll(() => server?.dispose());

describe('restart', () => {
  it('keeps every user, session, project, member and key', async () => {
    server = await startTestServer();
    let api = client(server.url);
    const owner = await registerUser(api);
    const mate = await registerUser(api);
    const project = await createProject(api, owner, 'Durable');
    await addMember(api, project.id, owner, mate, 'DEVELOPER');
    const key = await createKey(api, project.id, owner, 'staging');
    const loggedOut = await api.post('/v1/auth/login', {
      body: { email: mate.email, password: 'correct horse battery' },
    });
    await api.post('/v1/auth/logout', { token: loggedOut.body.token });

    server = await server.restart();
    api = client(server.url);

    // The session token, signed with a key kept in the database, still works; the revoked one does not.
    expect((await api.get(`/v1/projects/${project.id}`, { token: owner.token })).body).toMatchObject({
      name: 'Durable',
      role: 'OWNER',
    });
    expect((await api.get('/v1/projects', { token: loggedOut.body.token })).status).toBe(401);
    const members = await api.get(`/v1/projects/${project.id}/members`, { token: owner.token });
    expect(members.body.data.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [owner.id, 'OWNER'],
      [mate.id, 'DEVELOPER'],
    ]);
    expect((await api.get('/v1/whoami', { token: key.key })).body).toMatchObject({
      keyId: key.id,
      environment: 'staging',
    });
    expect(
      (await api.post('/v1/auth/login', { body: { email: mate.email, password: 'correct horse battery' } })).status,
    ).toBe(200);
    const audit = await api.get(`/v1/projects/${project.id}/audit-logs`, { token: owner.token });
    expect(audit.body.data).toHaveLength(3);
  });
});

describe('the data folder', () => {
  it('serves one server at a time: a second one on the same folder refuses to start', async () => {
    const dataDir = makeDataDir();
    const first = await startTestServer({ dataDir });
    try {
      await expect(startTestServer({ dataDir })).rejects.toThrow(DataDirInUseError);
      // The first server is unaffected by the attempt.
      expect((await client(first.url).get('/healthz')).status).toBe(200);
    } finally {
      await first.close();
    }
    // Once the first has stopped, the folder is free again.
    const second = await startTestServer({ dataDir });
    await second.dispose();
  });
});
