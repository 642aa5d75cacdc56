import express, { type Express, type Request, type RequestHandler } from 'express';
import type { Infrastructure } from './context.js';
import { notFound } from './errors.js';
import { type AccessLogSetting, accessLog } from './http/access-log.js';
import { dashboardRouter } from './http/dashboard.js';
import { errorMiddleware } from './http/error-middleware.js';
import { lazyHandler } from './http/lazy-router.js';
import { readiness } from './http/readiness.js';
import type { ObservedRequest } from './http/register-routes.js';
import { requestId } from './http/request-id.js';
import type { Runtime } from './runtime.js';
import { crossOriginPolicy } from './security/cross-origin.js';
import { pageHeaders } from './security/page-headers.js';
import { traceRequests } from './tracing/http-spans.js';

export interface AppOptions {
  /** The dashboard's built files (index.html and assets/), served at `/`. */
  dashboardDir: string;
  /** Which requests get an access log line (server/http/access-log.ts). */
  accessLog: AccessLogSetting;
  /** Times and counts every request for Prometheus (server/metrics); absent when the server serves no metrics. */
  requestMetrics?: RequestHandler;
}

/** `/v1/…`: the paths the API (routes, attachment bytes, backups) answers, or answers 404 for. */
const isApiPath = (path: string) => path === '/v1' || path.startsWith('/v1/');
const routeNotFound = (req: Request) =>
  notFound('SERVICE_ROUTE_NOT_FOUND', `No route ${req.method} ${req.path}. See /docs for the API reference.`);

/**
 * The Express application: a value built from the server's infrastructure, with no state of its own. The API is
 * the runtime's (see startServer): a request to it waits for `runtime` to load; `/healthz`, the API reference and
 * the dashboard's files do not.
 */
export function createApp(infra: Infrastructure, runtime: () => Promise<Runtime>, options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', infra.security.trustProxy);
  if (options.requestMetrics) app.use(options.requestMetrics);
  app.use(requestId(infra.ids));
  if (infra.tracing.enabled) app.use(traceRequests(infra.tracing));
  app.use(accessLog(infra.logger, options.accessLog));
  // The API first: its requests then pass no layer of the pages below (each a path to match), and the cross-origin
  // policy acts on API paths only.
  app.use(crossOriginPolicy(infra.mode, infra.security, infra.logger));
  let loaded: Runtime | undefined;
  const api = lazyHandler(async () => {
    loaded = await runtime();
    return loaded.api;
  });
  // What no API route answers is the API's 404, never the dashboard's (whose catch-all GET would answer an OPTIONS).
  app.use((req, res, next) => {
    if (isApiPath(req.path)) api(req, res, (err?: unknown) => next(err ?? routeNotFound(req)));
    else next();
  });

  const htmlPage = pageHeaders(infra.mode);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', version: infra.version, mode: infra.mode });
  });
  app.get('/readyz', readiness(infra.store, infra.cluster));

  // Loaded and built on their first request: the document alone was a tenth of start-up, and no API call needs it.
  app.get(
    '/openapi.json',
    lazyHandler(async () => {
      const [{ buildOpenApiDocument }, { routes }] = await Promise.all([
        import('./openapi/document.js'),
        import('./routes.js'),
      ]);
      const document = buildOpenApiDocument(routes, { version: infra.version });
      return (_req, res) => {
        res.json(document);
      };
    }),
  );
  app.get(
    '/schemas/seed.json',
    lazyHandler(async () => {
      const schema = (await import('./seeds/schema.js')).seedJsonSchema();
      return (_req, res) => {
        res.json(schema);
      };
    }),
  );
  app.use(
    '/docs',
    htmlPage,
    lazyHandler(async () => (await import('./openapi/docs.js')).docsRouter()),
  );
  if (infra.security.singleSignOn) {
    app.use(
      '/auth/sso',
      lazyHandler(async () => {
        const [{ singleSignOnPages }, { ctx }] = await Promise.all([import('./auth/sso/pages.js'), runtime()]);
        return singleSignOnPages(ctx.services.singleSignOn);
      }),
    );
  }
  // After the API: its catch-all GET would otherwise make Express answer every OPTIONS itself (200, Allow: GET),
  // before the CORS policy could answer a browser's preflight.
  app.use(dashboardRouter(options.dashboardDir, htmlPage));

  app.use((req, _res, next) => next(routeNotFound(req)));
  app.use(
    errorMiddleware(infra.logger, (req, res, error) => {
      const observed = res.locals.observed as ObservedRequest | undefined;
      if (!observed || !loaded) return;
      loaded.ctx.services.observability.requestFailed({
        ...observed,
        requestId: res.locals.requestId as string,
        method: req.method,
        error,
      });
    }),
  );
  return app;
}
