import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The HTML pages the server serves: the dashboard (or start page) and the API reference. */
const PAGES = ['/', '/docs'];

function expectPageHeaders(headers: Headers) {
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('x-frame-options')).toBe('DENY');
}

describe('security headers on the pages a local server serves', () => {
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer();
    api = client(server.url);
  });
  afterAll(() => server.dispose());

  it.each(PAGES)('%s has a self-only Content Security Policy, no framing, no referrer and nosniff', async (path) => {
    const res = await api.get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expectPageHeaders(res.headers);
    // HSTS over plain HTTP would lock browsers out of http://127.0.0.1 until it expired.
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('leaves the API’s JSON readable by browser apps on other origins (no page policy on it)', async () => {
    const res = await api.get('/healthz');
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('cross-origin-resource-policy')).toBeNull();
  });
});

describe('HSTS in production mode behind TLS', () => {
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer({ mode: 'production', security: { trustProxy: 'loopback' } });
    api = client(server.url);
  });
  afterAll(() => server.dispose());

  it.each(PAGES)(
    '%s sends Strict-Transport-Security when the trusted proxy says the request came over https',
    async (path) => {
      const overTls = await api.get(path, { headers: { 'x-forwarded-proto': 'https' } });
      expectPageHeaders(overTls.headers);
      expect(overTls.headers.get('strict-transport-security')).toBe('max-age=31536000');
      const plain = await api.get(path);
      expectPageHeaders(plain.headers);
      expect(plain.headers.get('strict-transport-security')).toBeNull();
    },
  );
});
