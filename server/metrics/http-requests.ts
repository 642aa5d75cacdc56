import type { NextFunction, Request, Response } from 'express';
import type { Histogram } from 'prom-client';
import { serverRoute } from '../http/access-log.js';

/** Methods counted under their own name; any other (Node's parser knows ≈30) counts as `OTHER`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Times every request and counts it under its route template (as the access log names it: the API's and the
 * dashboard's routes set `res.locals.route`), never its path, whose ids would make a series each: a path no route
 * answers counts as `unmatched`. Status 0: the connection closed before an answer was sent.
 */
export function requestMetrics(duration: Histogram<'route' | 'method' | 'status'>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      duration.observe(
        {
          route: (res.locals.route as string | undefined) ?? serverRoute(req.path) ?? 'unmatched',
          method: METHODS.has(req.method) ? req.method : 'OTHER',
          status: res.headersSent ? res.statusCode : 0,
        },
        (performance.now() - started) / 1000,
      );
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
