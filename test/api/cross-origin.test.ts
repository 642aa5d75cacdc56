import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, mintChatToken, projectWithKeys } from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

const APP = 'http://localhost:3000';

/** What a browser sends before a cross-origin request with an Authorization header. */
function preflight(api: Client, path: string, origin: string, method = 'POST') {
  return api.request('OPTIONS', path, {
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type',
    },
  });
}

function expectCorsAllowed(res: { status: number; headers: Headers }, origin: string) {
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
  expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
  expect(res.headers.get('access-control-max-age')).toBe('7200');
  expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  expect(res.headers.get('vary')).toContain('Origin');
}

describe('cross-origin requests in local mode', () => {
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer();
    api = client(server.url);
  });
  afterAll(() => server.dispose());

  it.each([
    '/v1/chat/conversations',
    '/v1/chat/conversations/conv_x/messages',
    '/v1/chat/attachments/att_x/content',
    '/v1/telemetry/events',
  ])('answers the preflight of runtime route %s from any origin', async (path) => {
    expectCorsAllowed(await preflight(api, path, APP), APP);
    expectCorsAllowed(await preflight(api, path, 'https://other.example', 'PUT'), 'https://other.example');
  });

  it('lets a browser app read the answer and the request id of a runtime call', async () => {
    const { keys } = await projectWithKeys(api);
    const token = await mintChatToken(api, keys.development, 'ada');
    const res = await api.get('/v1/chat/conversations', { token, headers: { origin: APP } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
    // An error answer carries them too, so that the app can show the server's message.
    const refused = await api.get('/v1/chat/conversations', { token: 'nope', headers: { origin: APP } });
    expectError(refused, 401, 'SERVICE_UNAUTHENTICATED');
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('keeps dashboard routes same-origin: a preflight from another origin is refused, saying how to allow it', async () => {
    const res = await preflight(api, '/v1/projects', APP);
    expectError(res, 403, 'SERVICE_ORIGIN_NOT_ALLOWED');
    expect(res.body.message).toContain('--allowed-origins');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    // The dashboard's own requests (same origin; browsers send Origin on POSTs) are untouched.
    const own = await api.post('/v1/auth/login', {
      headers: { origin: server.url },
      body: { email: 'a@b.c', password: 'x' },
    });
    expectError(own, 401, 'SERVICE_UNAUTHENTICATED');
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('cross-origin requests in production mode', () => {
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer({
      mode: 'production',
      security: { allowedOrigins: ['https://app.example.com'] },
    });
    api = client(server.url);
  });
  afterAll(() => server.dispose());

  it('allows the configured origin on runtime and dashboard routes', async () => {
    expectCorsAllowed(
      await preflight(api, '/v1/chat/conversations', 'https://app.example.com'),
      'https://app.example.com',
    );
    expectCorsAllowed(await preflight(api, '/v1/projects', 'https://app.example.com'), 'https://app.example.com');
  });

  it('refuses any other origin clearly, even on runtime routes', async () => {
    for (const path of ['/v1/chat/conversations', '/v1/telemetry/events', '/v1/chat/attachments/att_x/content']) {
      const res = await preflight(api, path, APP);
      expectError(res, 403, 'SERVICE_ORIGIN_NOT_ALLOWED');
      expect(res.body.message).toContain(APP);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    const request = await api.get('/v1/chat/conversations', { headers: { origin: APP } });
    expect(request.headers.get('access-control-allow-origin')).toBeNull();
  });
});
