import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/**
 * Which requests the access log records: every one, only error answers (status 400 and up), none, or error answers
 * and this fraction (0 to 1) of the others, drawn at random per request.
 */
export type AccessLogSetting = 'all' | 'errors' | 'off' | number;

/** The server's own paths outside the API and the dashboard, by the template they are logged under. */
export function serverRoute(path: string): string | undefined {
  if (path === '/healthz' || path === '/readyz' || path === '/openapi.json' || path === '/schemas/seed.json')
    return path;
  if (path === '/docs' || path.startsWith('/docs/')) return '/docs';
  if (path.startsWith('/assets/')) return '/assets/*';
  return undefined;
}

/**
 * One line a request, once its answer is sent (or its connection closed first): its `req_…` id (the `X-Request-Id`
 * its client saw), its trace id when the server traces, method, route template (never the path, whose ids or query, such as a socket's access_token, are
 * not the log's to keep), status and duration. The API's routes and the dashboard's pages set `res.locals.route`.
 */
export function accessLog(logger: Logger, setting: AccessLogSetting, random: () => number = Math.random) {
  if (setting === 'off') return (_req: Request, _res: Response, next: NextFunction): void => next();
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      const status = res.headersSent ? res.statusCode : 0;
      const failed = status >= 400 || status === 0;
      if (!failed && (setting === 'errors' || (typeof setting === 'number' && random() >= setting))) return;
      logger.info(
        {
          reqId: res.locals.requestId as string,
          // With tracing on (server/tracing): the trace the request's spans are in.
          ...(res.locals.traceId !== undefined && { traceId: res.locals.traceId as string }),
          method: req.method,
          route: (res.locals.route as string | undefined) ?? serverRoute(req.path) ?? null,
          status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}

/** `--access-log` / SWITCHBOARD_ACCESS_LOG: `all`, `errors`, `off`, or a fraction from 0 to 1. */
export function parseAccessLog(value: string): AccessLogSetting | undefined {
  if (value === 'all' || value === 'errors' || value === 'off') return value;
  if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(value)) return undefined;
  return Number(value);
}
