import express, { type Router } from 'express';
import { BACKUP_PATH, backupHandler } from './backups/route.js';
import { attachmentContentRouter, CONTENT_MOUNT } from './chat/attachments/content-routes.js';
import type { AppContext } from './context.js';
import { registerRoutes } from './http/register-routes.js';
import { routes } from './routes.js';
import { resumeRequestTrace } from './tracing/http-spans.js';

/** The `/v1` API: attachment bytes, the backup download, and the route table behind the JSON parser. */
export function createApiRouter(ctx: AppContext): Router {
  const api = express.Router();
  // Attachment bytes are the request body itself: mounted before the JSON parser sees them.
  api.use(CONTENT_MOUNT, attachmentContentRouter(ctx));
  api.get(BACKUP_PATH, backupHandler(ctx));
  api.use(express.json({ limit: '1mb', type: ['application/json', '+json'] }));
  if (ctx.tracing.enabled) api.use(resumeRequestTrace(ctx.tracing));
  registerRoutes(api, ctx, routes);
  return api;
}
