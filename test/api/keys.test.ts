import { beforeAll, describe, expect, it } from 'vitest';
import { databaseBytes } from '../support/database-files.js';
import { addMember, createKey, createProject, expectError, registerUser, type TestUser } from '../support/factories.js';
import { client } from '../support/http.js';
import { manualClock, startTestServer } from '../support/server.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

let owner: TestUser;
let projectId: string;
beforeAll(async () => {
  owner = await registerUser(t.api);
  projectId = (await createProject(t.api, owner)).id;
});

const KEY_TEXT = /^sb_(dev|stg|prod)_([A-Za-z0-9]+)\.([A-Za-z0-9]+)$/;
const keysPath = () => `/v1/projects/${projectId}/api-keys`;

describe('creating keys', () => {
  it('defaults to development and shows the full key once, in the documented text form', async () => {
    const res = await t.api.post(keysPath(), { token: owner.token, body: { name: 'backend' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^key_/),
      name: 'backend',
      environment: 'development',
      lastUsedAt: null,
    });
    expect(res.body.key).toMatch(KEY_TEXT);
    expect(res.body.key.startsWith('sb_dev_')).toBe(true);
  });

  it.each([
    ['development', 'development', 'dev'],
    ['Staging', 'staging', 'stg'],
    ['PRODUCTION', 'production', 'prod'],
  ])('accepts environment %s in any letter case', async (input, environment, segment) => {
    const key = await createKey(t.api, projectId, owner, input);
    expect(key.environment).toBe(environment);
    expect(key.key.startsWith(`sb_${segment}_`)).toBe(true);
  });

  it.each(['dev', 'prod', 'test', 'qa', '', 'production '])('refuses environment %j with 400', async (environment) => {
    const res = await t.api.post(keysPath(), { token: owner.token, body: { name: 'k', environment } });
    expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
    expect(res.body.message).toContain('environment');
  });

  it('never returns or stores the secret half', async () => {
    const created = await createKey(t.api, projectId, owner, 'staging', 'secret-check');
    const secret = created.key.split('.')[1];
    const listed = await t.api.get(`${keysPath()}?environment=staging`, { token: owner.token });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(listed.body.data.find((k: { id: string }) => k.id === created.id)).toEqual({
      id: created.id,
      name: 'secret-check',
      environment: 'staging',
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    // Not in the database either (on SQLite, its file and WAL): only a hash is kept.
    expect(await databaseBytes(t.server)).not.toContain(secret);
  });
});

describe('authenticating with a key', () => {
  it('takes the environment from the stored record: the segment is decoration', async () => {
    const key = await createKey(t.api, projectId, owner, 'staging');
    const [, , publicHalf, secretHalf] = KEY_TEXT.exec(key.key) ?? [];
    const variants = [
      key.key,
      `sb_prod_${publicHalf}.${secretHalf}`,
      `sb_dev_${publicHalf}.${secretHalf}`,
      `sb_${publicHalf}.${secretHalf}`,
    ];
    for (const text of variants) {
      const res = await t.api.get('/v1/whoami', { token: text });
      expect(res.status, text).toBe(200);
      expect(res.body).toEqual({ type: 'api_key', keyId: key.id, projectId, environment: 'staging' });
    }
  });

  it('refuses a wrong secret, a truncated key and a key of the wrong shape with 401', async () => {
    const key = await createKey(t.api, projectId, owner);
    const wrongSecret = `${key.key.slice(0, -1)}${key.key.endsWith('A') ? 'B' : 'A'}`;
    for (const text of [wrongSecret, key.key.split('.')[0], `${key.key}x`, 'sb_dev_', 'sb_dev_abc.def']) {
      expectError(await t.api.get('/v1/whoami', { token: text }), 401, 'SERVICE_UNAUTHENTICATED');
    }
  });

  it('is not accepted on dashboard (session) routes', async () => {
    const key = await createKey(t.api, projectId, owner);
    const res = await t.api.get(`/v1/projects/${projectId}`, { token: key.key });
    expectError(res, 401, 'SERVICE_UNAUTHENTICATED');
    expect(res.body.message).toMatch(/API keys are not accepted/);
  });

  it('records lastUsedAt, at most once a minute', async () => {
    const clock = manualClock();
    const timed = await startTestServer({ clock });
    try {
      const t = client(timed.url);
      const user = await registerUser(t);
      const project = await createProject(t, user);
      const key = await createKey(t, project.id, user);
      const lastUsed = async () =>
        (await t.get(`/v1/projects/${project.id}/api-keys`, { token: user.token })).body.data[0].lastUsedAt;
      expect(await lastUsed()).toBeNull();
      clock.advance(1000);
      await t.get('/v1/whoami', { token: key.key });
      const first = await lastUsed();
      expect(first).toBe(new Date(clock.now()).toISOString());
      clock.advance(30_000);
      await t.get('/v1/whoami', { token: key.key });
      expect(await lastUsed()).toBe(first);
      clock.advance(31_000);
      await t.get('/v1/whoami', { token: key.key });
      expect(await lastUsed()).toBe(new Date(clock.now()).toISOString());
    } finally {
      await timed.dispose();
    }
  });
});

describe('listing and revoking keys per environment', () => {
  it('lists the keys of ?environment= (default development) only', async () => {
    const fresh = await createProject(t.api, owner, 'Envs');
    const dev = await createKey(t.api, fresh.id, owner);
    const stg = await createKey(t.api, fresh.id, owner, 'staging');
    const prod = await createKey(t.api, fresh.id, owner, 'production');
    const ids = async (query: string) =>
      (await t.api.get(`/v1/projects/${fresh.id}/api-keys${query}`, { token: owner.token })).body.data.map(
        (k: { id: string }) => k.id,
      );
    expect(await ids('')).toEqual([dev.id]);
    expect(await ids('?environment=development')).toEqual([dev.id]);
    expect(await ids('?environment=STAGING')).toEqual([stg.id]);
    expect(await ids('?environment=production')).toEqual([prod.id]);
    expectError(
      await t.api.get(`/v1/projects/${fresh.id}/api-keys?environment=prod`, { token: owner.token }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
  });

  it('revokes a key so that it answers 401 at once; another environment’s id is 404', async () => {
    const key = await createKey(t.api, projectId, owner, 'production');
    expect((await t.api.get('/v1/whoami', { token: key.key })).status).toBe(200);

    const wrongEnv = await t.api.delete(`${keysPath()}/${key.id}`, { token: owner.token });
    expectError(wrongEnv, 404, 'SERVICE_API_KEY_NOT_FOUND');
    expect((await t.api.get('/v1/whoami', { token: key.key })).status).toBe(200);

    expect((await t.api.delete(`${keysPath()}/${key.id}?environment=production`, { token: owner.token })).status).toBe(
      204,
    );
    expectError(await t.api.get('/v1/whoami', { token: key.key }), 401, 'SERVICE_UNAUTHENTICATED');
    const listed = await t.api.get(`${keysPath()}?environment=production`, { token: owner.token });
    expect(listed.body.data.map((k: { id: string }) => k.id)).not.toContain(key.id);
    expectError(
      await t.api.delete(`${keysPath()}/${key.id}?environment=production`, { token: owner.token }),
      404,
      'SERVICE_API_KEY_NOT_FOUND',
    );
  });

  it('keeps projects apart: a key id of another project is 404', async () => {
    const other = await registerUser(t.api);
    const otherProject = await createProject(t.api, other);
    const otherKey = await createKey(t.api, otherProject.id, other);
    expectError(
      await t.api.delete(`${keysPath()}/${otherKey.id}`, { token: owner.token }),
      404,
      'SERVICE_API_KEY_NOT_FOUND',
    );
    expect((await t.api.get('/v1/whoami', { token: otherKey.key })).status).toBe(200);
  });

  it('lets DEVELOPER and VIEWER read keys; only DEVELOPER (and up) manage them; BILLING neither', async () => {
    const dev = await registerUser(t.api);
    const viewer = await registerUser(t.api);
    const billing = await registerUser(t.api);
    const p = await createProject(t.api, owner, 'Roles');
    await addMember(t.api, p.id, owner, dev, 'DEVELOPER');
    await addMember(t.api, p.id, owner, viewer, 'VIEWER');
    await addMember(t.api, p.id, owner, billing, 'BILLING');
    const made = await t.api.post(`/v1/projects/${p.id}/api-keys`, { token: dev.token, body: { name: 'by dev' } });
    expect(made.status).toBe(201);
    expect((await t.api.get(`/v1/projects/${p.id}/api-keys`, { token: viewer.token })).body.data).toHaveLength(1);
    expectError(
      await t.api.post(`/v1/projects/${p.id}/api-keys`, { token: viewer.token, body: { name: 'x' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expectError(
      await t.api.delete(`/v1/projects/${p.id}/api-keys/${made.body.id}`, { token: viewer.token }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expectError(
      await t.api.get(`/v1/projects/${p.id}/api-keys`, { token: billing.token }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expect((await t.api.delete(`/v1/projects/${p.id}/api-keys/${made.body.id}`, { token: dev.token })).status).toBe(
      204,
    );
  });
});
