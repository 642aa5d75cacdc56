import express, { type Express } from 'express';
import { BACKUP_PATH, backupHandler } from './backups/route.js';
import { attachmentContentRouter, CONTENT_MOUNT } from './chat/attachments/content-routes.js';
import type { AppContext } from './context.js';
import { notFound } from './errors.js';
import { dashboardRouter } from './http/dashboard.js';
import { errorMiddleware } from './http/error-middleware.js';
import { lazyHandler } from './http/lazy-router.js';
import { type ObservedRequest, registerRoutes } from './http/register-routes.js';
import { requestId } from './http/request-id.js';
import { crossOriginPolicy } from './security/cross-origin.js';
import { pageHeaders } from './security/page-headers.js';

export interface AppOptions {
  /** The dashboard's built files (index.html and assets/), served at `/`. */
  dashboardDir: string;
}

/** The Express application: a value built from its context, with no state of its own. */
export function createApp(ctx: AppContext, options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', ctx.security.trustProxy);
  app.use(requestId(ctx.ids));

  const htmlPage = pageHeaders(ctx.mode);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', version: ctx.version, mode: ctx.mode });
  });

  // Loaded and built on their first request: the document alone was a tenth of start-up, and no API call needs it.
  app.get(
    '/openapi.json',
    lazyHandler(async () => {
      const [{ buildOpenApiDocument }, { routes }] = await Promise.all([
        import('./openapi/document.js'),
        import('./routes.js'),
      ]);
      const document = buildOpenApiDocument(routes, { version: ctx.version });
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
  app.use(crossOriginPolicy(ctx.mode, ctx.security, ctx.logger));
  // Attachment bytes are the request body itself: mounted before the JSON parser sees them.
  app.use(CONTENT_MOUNT, attachmentContentRouter(ctx));
  app.get(BACKUP_PATH, backupHandler(ctx));
  app.use(express.json({ limit: '1mb', type: ['application/json', '+json'] }));
  // The route table, its modules and their schemas load on the first request that can reach them, not at start-up,
  // which they slowed by about a tenth; the first API call pays for them once.
  app.use(
    lazyHandler(async () => {
      const { routes } = await import('./routes.js');
      const api = express.Router();
      registerRoutes(api, ctx, routes);
      return api;
    }),
  );
  // After the API: its catch-all GET would otherwise make Express answer every OPTIONS itself (200, Allow: GET),
  // before the CORS policy could answer a browser's preflight.
  app.use(dashboardRouter(options.dashboardDir, htmlPage));

  app.use((req, _res, next) => {
    next(notFound('SERVICE_ROUTE_NOT_FOUND', `No route ${req.method} ${req.path}. See /docs for the API reference.`));
  });
  app.use(
    errorMiddleware(ctx.logger, (req, res, error) => {
      const observed = res.locals.observed as ObservedRequest | undefined;
      if (!observed) return;
      ctx.services.observability.requestFailed({
        ...observed,
        requestId: res.locals.requestId as string,
        method: req.method,
        error,
      });
    }),
  );
  return app;
}
