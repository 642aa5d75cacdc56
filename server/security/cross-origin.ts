import cors from 'cors';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { DeploymentMode } from '../context.js';
import { ServiceError } from '../errors.js';
import type { SecuritySettings } from './settings.js';

/**
 * The routes browsers call with end-user credentials (chat and RTC tokens, signed attachment URLs): a web app on any
 * origin is their client. Everything else (sessions, keys) is the dashboard's or a server's.
 */
const RUNTIME_PREFIXES = ['/v1/chat/', '/v1/telemetry/events'];

export const isRuntimePath = (path: string) => RUNTIME_PREFIXES.some((prefix) => path.startsWith(prefix));

/** What a browser may send and read: bearer tokens in a header, never cookies. */
const corsHeaders = cors({
  origin: true,
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  allowedHeaders: ['authorization', 'content-type'],
  exposedHeaders: [
    'X-Request-Id',
    'Retry-After',
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
    'RateLimit-Policy',
  ],
  credentials: false,
  // Chromium caps a cached preflight at 2 hours.
  maxAge: 7200,
});

const originNotAllowed = (origin: string) =>
  new ServiceError(
    'SERVICE_ORIGIN_NOT_ALLOWED',
    `The origin ${origin} may not call this route from a browser. A server administrator can allow it with ` +
      '--allowed-origins (or SWITCHBOARD_ALLOWED_ORIGINS).',
  );

/**
 * CORS for `/v1` (mounted at the root: the runtime prefixes are full paths): a preflight from an allowed origin is answered (204) with the headers above, and every response
 * to it carries `Access-Control-Allow-Origin`. Runtime routes allow any origin in local mode and the configured ones
 * in production; other routes allow only the configured ones (the dashboard is same-origin and needs none). A
 * preflight from any other origin is refused with a 403 that says how to allow it, so that the developer sees why
 * in the browser's network panel and in the server's log, rather than a bare "Failed to fetch".
 */
export function crossOriginPolicy(mode: DeploymentMode, security: SecuritySettings, logger: Logger): RequestHandler {
  const configured = new Set(security.allowedOrigins);
  const anyConfigured = configured.has('*');
  const allows = (origin: string, path: string) =>
    anyConfigured || configured.has(origin) || (mode === 'local' && isRuntimePath(path));

  return (req, res, next) => {
    const origin = req.headers.origin;
    if (!origin || !req.path.startsWith('/v1/')) return next();
    if (allows(origin, req.path)) return corsHeaders(req, res, next);
    // A same-origin request (the dashboard's own POSTs carry Origin too) needs no CORS headers and is not refused.
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (!preflight) return next();
    logger.warn({ origin, path: req.path }, 'cross-origin request refused: origin not allowed');
    next(originNotAllowed(origin));
  };
}
