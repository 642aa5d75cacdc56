import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { client } from '../support/http.js';
import { startTestServer } from '../support/server.js';

// A stand-in for a Vite build (the browser tests use the real one): what matters here is how the server serves it.
const built = mkdtempSync(join(tmpdir(), 'switchboard-dashboard-'));
mkdirSync(join(built, 'assets'));
writeFileSync(join(built, 'index.html'), '<!doctype html><title>Switchboard</title><div id="root"></div>');
writeFileSync(join(built, 'assets', 'index-AbC123.js'), 'console.log("dashboard")');
const empty = mkdtempSync(join(tmpdir(), 'switchboard-no-dashboard-'));
afterAll(() => {
  rmSync(built, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

describe('the dashboard at /', () => {
  it('serves index.html, never cached, with the pages’ security headers, for / and every client-side route', async () => {
    const server = await startTestServer({ dashboardDir: built });
    try {
      const api = client(server.url);
      for (const path of ['/', '/sign-in?redirect=%2F', '/projects/prj_x/keys?env=production']) {
        const res = await api.get(path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type')).toContain('text/html');
        expect(res.body).toContain('<div id="root">');
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
        expect(res.headers.get('x-frame-options')).toBe('DENY');
      }
    } finally {
      await server.dispose();
    }
  });

  it('caches hashed assets for good, answers a missing asset 404 (not the page), and leaves the API and server pages alone', async () => {
    const server = await startTestServer({ dashboardDir: built });
    try {
      const api = client(server.url);
      const asset = await api.get('/assets/index-AbC123.js');
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toContain('javascript');
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await api.get('/assets/index-gone.js')).status).toBe(404);

      const unknownApi = await api.get('/v1/no-such-route');
      expect(unknownApi.status).toBe(404);
      expect(unknownApi.body).toMatchObject({ code: 'SERVICE_ROUTE_NOT_FOUND' });
      expect((await api.get('/v1')).body).toMatchObject({ code: 'SERVICE_ROUTE_NOT_FOUND' });
      expect((await api.get('/healthz')).body).toMatchObject({ status: 'ok' });
      expect((await api.get('/openapi.json')).body.openapi).toBe('3.1.0');
      const docs = await api.get('/docs');
      expect(docs.body).toContain('Switchboard API');
      expect(docs.body).not.toContain('<div id="root">');
      // Other methods are the API's: no page answers a POST.
      expect((await api.post('/projects/prj_x/keys')).body).toMatchObject({ code: 'SERVICE_ROUTE_NOT_FOUND' });
    } finally {
      await server.dispose();
    }
  });

  it("answers 404 for a path that is none of the dashboard's pages: its page for a browser, JSON otherwise", async () => {
    const server = await startTestServer({ dashboardDir: built });
    try {
      for (const path of ['/metrics', '/projects', '/projects/prj_x/keys/key_1', '/health']) {
        // A scraper or a probe (curl and fetch send */*).
        const probe = await fetch(`${server.url}${path}`, { headers: { Accept: '*/*' } });
        expect(probe.status, path).toBe(404);
        expect(await probe.json()).toMatchObject({ code: 'SERVICE_ROUTE_NOT_FOUND' });
        // A browser navigating there: the dashboard, which shows its own not-found page, with the status saying so.
        const browser = await fetch(`${server.url}${path}`, {
          headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
        });
        expect(browser.status, path).toBe(404);
        expect(await browser.text()).toContain('<div id="root">');
        expect(browser.headers.get('content-security-policy')).toContain("script-src 'self'");
      }
      // A reload of one of its pages, in a browser, still opens it.
      const reload = await fetch(`${server.url}/projects/prj_x/observability/errors/err_1`, {
        headers: { Accept: 'text/html' },
      });
      expect(reload.status).toBe(200);
    } finally {
      await server.dispose();
    }
  });

  it('says how to build the dashboard when its folder has no build, and the API still works', async () => {
    const server = await startTestServer({ dashboardDir: empty });
    try {
      const api = client(server.url);
      const res = await api.get('/projects/prj_x');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.body).toContain('The dashboard is not built');
      expect(res.body).toContain('npm run build');
      expect((await api.get('/healthz')).status).toBe(200);
    } finally {
      await server.dispose();
    }
  });
});
