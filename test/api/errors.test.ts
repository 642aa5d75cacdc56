import { beforeAll, describe, expect, it } from 'vitest';
import { createProject, expectError, registerUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

let user: TestUser;
let projectId: string;
beforeAll(async () => {
  user = await registerUser(t.api);
  projectId = (await createProject(t.api, user)).id;
});

describe('request ids', () => {
  it('puts a req_ id in X-Request-Id on every response, a new one each time', async () => {
    const a = await t.api.get('/healthz');
    const b = await t.api.get('/v1/projects', { token: user.token });
    expect(a.headers.get('x-request-id')).toMatch(/^req_/);
    expect(b.headers.get('x-request-id')).toMatch(/^req_/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

describe('the error body', () => {
  it('is JSON 404 SERVICE_ROUTE_NOT_FOUND for an unknown route', async () => {
    expectError(await t.api.get('/v1/nothing-here'), 404, 'SERVICE_ROUTE_NOT_FOUND');
    expectError(await t.api.put('/v1/projects', { token: user.token }), 404, 'SERVICE_ROUTE_NOT_FOUND');
  });

  it('is 400 for malformed JSON', async () => {
    const res = await t.api.post('/v1/projects', {
      token: user.token,
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
    expect(res.body.message).toMatch(/JSON/);
  });

  it('is 400 naming the field for an unknown body field, on every route with a body', async () => {
    const cases: [string, string, unknown][] = [
      ['POST', '/v1/auth/login', { email: 'a@b.test', password: 'x', remember: true }],
      ['POST', '/v1/projects', { name: 'p', environment: 'production' }],
      ['PATCH', `/v1/projects/${projectId}`, { name: 'p', ownerId: user.id }],
      ['POST', `/v1/projects/${projectId}/api-keys`, { name: 'k', secret: 'mine' }],
      ['POST', `/v1/projects/${projectId}/members`, { email: 'a@b.test', role: 'VIEWER', capabilities: [] }],
      ['POST', '/v1/auth/logout', { everywhere: true }],
    ];
    for (const [method, path, body] of cases) {
      const res = await t.api.request(method, path, { token: user.token, body });
      expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
      expect(res.body.message).toMatch(/unknown body field/);
    }
  });

  it('lists each field at fault in `fields`, with its path, for programs that mark a form', async () => {
    const res = await t.api.post(`/v1/projects/${projectId}/members`, {
      token: user.token,
      body: { role: 'KING', colour: 'blue' },
    });
    expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
    expect(res.body.fields).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'required' },
        { path: 'role', message: expect.stringMatching(/\S/) },
        { path: 'colour', message: 'unknown field' },
      ]),
    );
    expect(res.body.fields).toHaveLength(3);
    const nested = await t.api.request('GET', `/v1/projects/${projectId}/api-keys?env=production`, {
      token: user.token,
    });
    expect(nested.body.fields).toEqual([{ path: 'env', message: 'unknown field' }]);
    // Other errors carry no `fields`.
    expect((await t.api.get('/v1/nothing-here')).body.fields).toBeUndefined();
  });

  it('is 400 for an unknown query parameter', async () => {
    const res = await t.api.get(`/v1/projects/${projectId}/api-keys?env=production`, { token: user.token });
    expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
    expect(res.body.message).toContain('env');
  });

  it('is 415 for a body that is not JSON', async () => {
    const res = await t.api.post('/v1/projects', {
      token: user.token,
      rawBody: 'name=p',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, 415, 'SERVICE_UNSUPPORTED_MEDIA_TYPE');
  });

  it('is 413 for a body over 1 MB', async () => {
    const res = await t.api.post('/v1/projects', { token: user.token, body: { name: 'x'.repeat(1_100_000) } });
    expectError(res, 413, 'SERVICE_PAYLOAD_TOO_LARGE');
    expect(res.body.message).toMatch(/^The request body is too large: at most 1 MB \(this one is 1\.05 MB\)\.$/);
  });
});

describe('bad input never gives a 500', () => {
  // Raw JSON texts, so that keys like __proto__ reach the server as written.
  const bodies = [
    'null',
    '[]',
    '"text"',
    '42',
    'true',
    '{"name": null}',
    '{"name": 12}',
    '{"name": {"$gt": ""}}',
    '{"name": ["a"]}',
    '{"name": ""}',
    '{"name": " "}',
    `{"name": "${'a'.repeat(10_000)}"}`,
    `{"email": "${'x'.repeat(300)}", "password": "y", "role": "OWNER"}`,
    '{"role": "owner"}',
    '{"environment": "PRODUCTION "}',
    '{"__proto__": {"admin": true}}',
    '{"constructor": {"prototype": {}}}',
    '{"name": "\\ud800"}',
  ];
  const paths = (id: string) => [
    ['POST', '/v1/auth/register'],
    ['POST', '/v1/auth/login'],
    ['POST', '/v1/projects'],
    ['PATCH', `/v1/projects/${id}`],
    ['POST', `/v1/projects/${id}/members`],
    ['PATCH', `/v1/projects/${id}/members/${user.id}`],
    ['POST', `/v1/projects/${id}/api-keys`],
  ];

  it('answers every odd body on every route below 500, and every refusal with an error body', async () => {
    let refused = 0;
    for (const [method, path] of paths(projectId)) {
      for (const rawBody of bodies) {
        const res = await t.api.request(method, path, {
          token: user.token,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        const what = `${method} ${path} ${rawBody.slice(0, 60)}`;
        expect(res.status, what).toBeLessThan(500);
        if (res.status >= 400) {
          refused++;
          expect(res.body.code, what).toMatch(/^SERVICE_/);
        }
      }
    }
    // Nearly all of these are invalid; the few that are valid (e.g. an empty PATCH) still succeed.
    expect(refused).toBeGreaterThan(bodies.length * 6);
  });

  it('answers odd paths and queries with 4xx', async () => {
    const odd = [
      '/v1/projects/%E0%A4%A',
      `/v1/projects/${projectId}/api-keys?environment=`,
      `/v1/projects/${projectId}/api-keys?environment=staging&environment=production`,
      `/v1/projects/${projectId}/audit-logs?limit=0`,
      `/v1/projects/${projectId}/audit-logs?limit=abc`,
      `/v1/projects/${projectId}/audit-logs?cursor=%%%`,
      `/v1/projects/${projectId}/audit-logs?cursor=bm90LWpzb24`,
      `/v1/projects/${'x'.repeat(5000)}`,
      '/v1/projects/..%2f..%2fetc%2fpasswd',
    ];
    for (const path of odd) {
      const res = await t.api.get(path, { token: user.token });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.body.code, path).toMatch(/^SERVICE_/);
    }
    // A path that climbs out of /v1 is no dashboard page: a 404, never a file of the machine.
    const climbed = await t.api.get('/v1/projects/../../etc/passwd');
    expect(climbed.status).toBe(404);
    expect(climbed.body.code).toBe('SERVICE_ROUTE_NOT_FOUND');
    expect(JSON.stringify(climbed.body)).not.toContain('root:');
  });
});
