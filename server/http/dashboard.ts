import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import { dashboardPage } from './dashboard-routes.js';

/** Paths the dashboard never answers: the API (whose unknown paths keep their JSON 404) and the server's own pages. */
const SERVER_PATHS = /^\/(v1|docs|openapi\.json|healthz|readyz)(\/|$)/;

/**
 * The dashboard, a single-page app built by Vite into `dir`: its hashed files under `/assets` are cached for good
 * (a new build has new names; everything the page loads is there, its icon included), `index.html` never. A GET of
 * one of the dashboard's pages (DASHBOARD_ROUTES) answers `index.html`, so that a copied dashboard link
 * (`/projects/prj_…/keys`) opens its page; any other path is a 404, so that a probe or scraper pointed at a wrong
 * path (`/metrics`) is told so: a browser gets `index.html` with it (the dashboard shows its own not-found page),
 * anything else the API's JSON 404. `htmlHeaders` adds the pages' security headers. Without a build in `dir`, `/`
 * says how to make one.
 */
export function dashboardRouter(dir: string, htmlHeaders: RequestHandler): Router {
  const router = express.Router();
  const indexFile = join(dir, 'index.html');
  router.use('/assets', express.static(join(dir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }));
  router.get(/.*/, htmlHeaders, (req, res, next) => {
    if (SERVER_PATHS.test(req.path)) return next();
    const page = dashboardPage(req.path);
    if (page) res.locals.route = page; // for the access log
    // `*/*` (curl, fetch, probes) prefers JSON; a browser's navigation names text/html first.
    if (!page && req.accepts(['json', 'html']) !== 'html') return next();
    res.status(page ? 200 : 404);
    res.set('Cache-Control', 'no-cache');
    if (!existsSync(indexFile)) {
      res
        .status(page ? 503 : 404)
        .type('html')
        .send(notBuiltPage(dir));
      return;
    }
    // Relative to `root`: send refuses a path with a dot-folder in it, as the executable's ~/.cache/… has.
    res.sendFile('index.html', { root: dir });
  });
  return router;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** What `/` says when the server runs without a dashboard build (e.g. from source): how to build one. */
function notBuiltPage(dir: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Switchboard: dashboard not built</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d2430; }
    main { max-width: 40rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: 12px; }
    code { background: #eef1f5; padding: 0.1rem 0.3rem; border-radius: 4px; } a { color: #2456d6; }
  </style>
</head>
<body>
  <main>
    <h1>The dashboard is not built</h1>
    <p>Switchboard is running, but there is no dashboard build in <code>${escapeHtml(dir)}</code>.
      Build it with <code>npm run build</code> (or run <code>npm start</code>, which builds everything), then reload.
      While working on the dashboard, <code>npm run dev:dashboard</code> serves it with hot reload.</p>
    <p>The API is at <code>/v1</code>: see the <a href="/docs">API reference</a>.</p>
  </main>
</body>
</html>`;
}
