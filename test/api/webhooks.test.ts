import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseBytes } from '../support/database-files.js';
import { addMember, createProject, expectError, registerUser, type TestUser } from '../support/factories.js';
import { testStore } from '../support/test-store.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

let owner: TestUser;
let projectId: string;
beforeAll(async () => {
  owner = await registerUser(t.api);
  projectId = (await createProject(t.api, owner)).id;
});

const hooksPath = (project = projectId) => `/v1/projects/${project}/webhooks`;
const URL_ = 'https://example.com/hooks';

async function register(body: Record<string, unknown>, project = projectId) {
  const res = await t.api.post(hooksPath(project), { token: owner.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('registering an endpoint', () => {
  it('answers 201 with the endpoint, its environment in upper case, and the signing secret once', async () => {
    const res = await t.api.post(hooksPath(), {
      token: owner.token,
      body: { url: URL_, environment: 'production', events: ['message.created'] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^wh_[0-9A-Z]{26}$/),
      url: URL_,
      environment: 'PRODUCTION',
      events: ['message.created'],
      enabled: true,
      consecutiveFailures: 0,
      disabledAt: null,
      disabledReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{40}$/),
    });
  });

  it.each([
    ['development', 'DEVELOPMENT'],
    ['Staging', 'STAGING'],
    ['PRODUCTION', 'PRODUCTION'],
  ])('takes environment %s in any letter case', async (input, shown) => {
    expect((await register({ url: URL_, environment: input })).environment).toBe(shown);
  });

  it('subscribes to every type when events is empty or absent, and drops repeats', async () => {
    expect((await register({ url: URL_, environment: 'development' })).events).toEqual([]);
    expect((await register({ url: URL_, environment: 'development', events: [] })).events).toEqual([]);
    const repeated = await register({
      url: URL_,
      environment: 'development',
      events: ['room.created', 'message.created', 'room.created'],
    });
    expect(repeated.events).toEqual(['room.created', 'message.created']);
  });

  it.each([
    [{ url: URL_ }, 'environment'],
    [{ url: URL_, environment: 'prod' }, 'environment'],
    [{ url: URL_, environment: 'qa' }, 'environment'],
    [{ environment: 'development' }, 'url'],
    [{ url: 'not a url', environment: 'development' }, 'url'],
    [{ url: `https://example.com/${'a'.repeat(2100)}`, environment: 'development' }, 'url'],
    [{ url: URL_, environment: 'development', events: ['message.exploded'] }, 'unknown event type'],
    [{ url: URL_, environment: 'development', events: 'message.created' }, 'events'],
    [{ url: URL_, environment: 'development', secret: 'mine' }, 'unknown body field "secret"'],
    [{ url: URL_, environment: 'development', enabled: false }, 'unknown body field "enabled"'],
  ])('refuses %j with 400 naming %s', async (body, named) => {
    const res = await t.api.post(hooksPath(), { token: owner.token, body });
    expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
    expect(res.body.message).toContain(named);
  });

  it('keeps the secret encrypted at rest, with a key file readable by the owner only (on SQLite)', async () => {
    const { id, secret } = await register({ url: URL_, environment: 'staging' });
    const listed = await t.api.get(`${hooksPath()}?environment=staging`, { token: owner.token });
    const one = await t.api.get(`${hooksPath()}/${id}?environment=staging`, { token: owner.token });
    expect(JSON.stringify([listed.body, one.body])).not.toContain(secret);
    expect(one.body).not.toHaveProperty('secret');
    const stored = await databaseBytes(t.server);
    expect(stored).not.toContain(secret.slice('whsec_'.length));
    const keyPath = join(t.server.dataDir, 'webhook-secrets.key');
    if (testStore() === 'postgres') {
      // On PostgreSQL the key derives from the secret key: nothing in the data folder, which servers do not share.
      expect(existsSync(keyPath)).toBe(false);
      return;
    }
    const keyFile = statSync(keyPath);
    expect(keyFile.mode & 0o777).toBe(0o600);
    expect(keyFile.size).toBe(32);
  });
});

describe('environments', () => {
  it('lists the endpoints of ?environment= (default development) only', async () => {
    const project = await createProject(t.api, owner, 'Envs');
    const dev = await register({ url: URL_, environment: 'development' }, project.id);
    const stg = await register({ url: URL_, environment: 'staging' }, project.id);
    const ids = async (query: string) =>
      (await t.api.get(`${hooksPath(project.id)}${query}`, { token: owner.token })).body.data.map(
        (w: { id: string }) => w.id,
      );
    expect(await ids('')).toEqual([dev.id]);
    expect(await ids('?environment=STAGING')).toEqual([stg.id]);
    expect(await ids('?environment=production')).toEqual([]);
  });

  it('finds an endpoint only in its own environment: 404 elsewhere, on every route', async () => {
    const stg = await register({ url: URL_, environment: 'staging' });
    const one = `${hooksPath()}/${stg.id}`;
    const routes: [string, string, unknown?][] = [
      ['GET', one],
      ['PATCH', one, { url: 'https://example.com/other' }],
      ['GET', `${one}/deliveries`],
      ['POST', `${one}/test`, { type: 'room.created' }],
      ['DELETE', one],
    ];
    for (const [method, path, body] of routes) {
      for (const query of ['', '?environment=development', '?environment=production']) {
        const res = await t.api.request(method, `${path}${query}`, { token: owner.token, body });
        expectError(res, 404, 'SERVICE_WEBHOOK_NOT_FOUND');
      }
    }
    // Unchanged, and there in staging.
    const found = await t.api.get(`${one}?environment=staging`, { token: owner.token });
    expect(found.body).toMatchObject({ id: stg.id, url: URL_, environment: 'STAGING' });
  });

  it('keeps projects apart: another project’s endpoint is 404', async () => {
    const other = await registerUser(t.api);
    const otherProject = await createProject(t.api, other);
    const res = await t.api.post(hooksPath(otherProject.id), {
      token: other.token,
      body: { url: URL_, environment: 'development' },
    });
    expectError(
      await t.api.patch(`${hooksPath()}/${res.body.id}`, { token: owner.token, body: { enabled: false } }),
      404,
      'SERVICE_WEBHOOK_NOT_FOUND',
    );
    expectError(
      await t.api.get(`${hooksPath(otherProject.id)}`, { token: owner.token }),
      404,
      'SERVICE_PROJECT_NOT_FOUND',
    );
  });
});

describe('updating and deleting', () => {
  it('changes url and events, disables and re-enables, and audits each change', async () => {
    const project = await createProject(t.api, owner, 'Audited');
    const hook = await register({ url: URL_, environment: 'staging' }, project.id);
    const path = `${hooksPath(project.id)}/${hook.id}?environment=staging`;

    const changed = await t.api.patch(path, {
      token: owner.token,
      body: { url: 'https://example.org/in', events: ['room.created'] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ url: 'https://example.org/in', events: ['room.created'], enabled: true });

    const disabled = await t.api.patch(path, { token: owner.token, body: { enabled: false } });
    expect(disabled.body).toMatchObject({
      enabled: false,
      disabledAt: expect.any(String),
      disabledReason: `Disabled by ${owner.email}.`,
    });
    const enabled = await t.api.patch(path, { token: owner.token, body: { enabled: true } });
    expect(enabled.body).toMatchObject({
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      consecutiveFailures: 0,
    });
    // Nothing to change: answered, not audited.
    expect((await t.api.patch(path, { token: owner.token, body: {} })).status).toBe(200);
    expect((await t.api.patch(path, { token: owner.token, body: { enabled: true } })).status).toBe(200);

    expect((await t.api.delete(path, { token: owner.token })).status).toBe(204);
    expectError(await t.api.get(path, { token: owner.token }), 404, 'SERVICE_WEBHOOK_NOT_FOUND');
    expectError(await t.api.delete(path, { token: owner.token }), 404, 'SERVICE_WEBHOOK_NOT_FOUND');

    const audit = await t.api.get(`/v1/projects/${project.id}/audit-logs`, { token: owner.token });
    const entries = audit.body.data
      .filter((e: { action: string }) => e.action.startsWith('webhook.'))
      .reverse()
      .map((e: any) => ({ action: e.action, target: e.target, environment: e.environment, details: e.details }));
    const target = { type: 'webhook', id: hook.id };
    expect(entries).toEqual([
      { action: 'webhook.created', target, environment: 'staging', details: { url: URL_, events: [] } },
      {
        action: 'webhook.updated',
        target,
        environment: 'staging',
        details: {
          url: { from: URL_, to: 'https://example.org/in' },
          events: { from: [], to: ['room.created'] },
        },
      },
      { action: 'webhook.updated', target, environment: 'staging', details: { enabled: { from: true, to: false } } },
      { action: 'webhook.updated', target, environment: 'staging', details: { enabled: { from: false, to: true } } },
      { action: 'webhook.deleted', target, environment: 'staging', details: { url: 'https://example.org/in' } },
    ]);
    expect(audit.body.data.find((e: any) => e.action === 'webhook.created').actor).toEqual({
      type: 'user',
      id: owner.id,
      email: owner.email,
    });
  });

  it('refuses an update with an unknown field, an unknown event type or a refused URL, and changes nothing', async () => {
    const hook = await register({ url: URL_, environment: 'development' });
    const path = `${hooksPath()}/${hook.id}`;
    for (const body of [{ secret: 'x' }, { events: ['nope'] }, { enabled: 'yes' }, { environment: 'staging' }]) {
      expectError(await t.api.patch(path, { token: owner.token, body }), 400, 'SERVICE_VALIDATION_FAILED');
    }
    expectError(
      await t.api.patch(path, { token: owner.token, body: { url: 'ftp://example.com/' } }),
      400,
      'SERVICE_WEBHOOK_TARGET_REFUSED',
    );
    expect((await t.api.get(path, { token: owner.token })).body).toMatchObject({
      url: URL_,
      events: [],
      enabled: true,
    });
  });
});

describe('who may do what', () => {
  it('lets VIEWER read, DEVELOPER manage, and BILLING do neither', async () => {
    const project = await createProject(t.api, owner, 'Roles');
    const [developer, viewer, billing] = await Promise.all([
      registerUser(t.api),
      registerUser(t.api),
      registerUser(t.api),
    ]);
    await addMember(t.api, project.id, owner, developer, 'DEVELOPER');
    await addMember(t.api, project.id, owner, viewer, 'VIEWER');
    await addMember(t.api, project.id, owner, billing, 'BILLING');
    const base = hooksPath(project.id);
    const body = { url: URL_, environment: 'development' };

    const made = await t.api.post(base, { token: developer.token, body });
    expect(made.status).toBe(201);
    const one = `${base}/${made.body.id}`;
    expect((await t.api.get(base, { token: viewer.token })).body.data).toHaveLength(1);
    expect((await t.api.get(`${one}/deliveries`, { token: viewer.token })).status).toBe(200);
    for (const [method, path, payload] of [
      ['POST', base, body],
      ['PATCH', one, { enabled: false }],
      ['DELETE', one, undefined],
      ['POST', `${one}/test`, { type: 'room.created' }],
    ] as const) {
      expectError(
        await t.api.request(method, path, { token: viewer.token, body: payload }),
        403,
        'SERVICE_PERMISSION_DENIED',
      );
    }
    expectError(await t.api.get(base, { token: billing.token }), 403, 'SERVICE_PERMISSION_DENIED');
    expect((await t.api.delete(one, { token: developer.token })).status).toBe(204);
  });
});

describe('odd input', () => {
  it('never gives a 500 on the webhook routes', async () => {
    const hook = await register({ url: URL_, environment: 'development' });
    const one = `${hooksPath()}/${hook.id}`;
    const bodies = [
      'null',
      '[]',
      '"text"',
      '{"url": null, "environment": "development"}',
      '{"url": "http://[::1", "environment": "development"}',
      '{"url": "https://[fe80::1%25eth0]/", "environment": "development"}',
      '{"url": "https://exa\u00e9mple.com/", "environment": "development"}',
      '{"url": "https://%zz/", "environment": "development"}',
      '{"url": "https:///", "environment": "development"}',
      '{"url": "https://example.com", "environment": "development", "events": [null]}',
      '{"url": "https://example.com", "environment": "development", "events": {"0": "room.created"}}',
      `{"url": "https://example.com", "environment": "development", "events": ${JSON.stringify(Array(100).fill('room.created'))}}`,
      '{"type": "__proto__"}',
      '{"type": "constructor"}',
      '{"__proto__": {"enabled": true}}',
      '{"enabled": null}',
    ];
    for (const [method, path] of [
      ['POST', hooksPath()],
      ['PATCH', one],
      ['POST', `${one}/test`],
      ['POST', `${one}/deliveries/whd_x/resend`],
    ]) {
      for (const rawBody of bodies) {
        const res = await t.api.request(method, path, {
          token: owner.token,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status, `${method} ${path} ${rawBody}`).toBeLessThan(500);
      }
    }
    for (const query of [
      '?limit=0',
      '?limit=abc',
      '?cursor=%%%',
      '?cursor=bm90LWpzb24',
      '?status=',
      '?environment=prod',
      '?x=1',
    ]) {
      const res = await t.api.get(`${one}/deliveries${query}`, { token: owner.token });
      expect(res.status, query).toBe(400);
    }
  });
});
