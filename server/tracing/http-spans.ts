import type { Context, Span } from '@opentelemetry/api';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { serverRoute } from '../http/access-log.js';
import { SPAN_KIND, SPAN_STATUS_ERROR, type Tracing } from './tracing.js';

interface RequestTrace {
  span: Span;
  parent: Context;
}

/**
 * One server span a request, child of the caller's `traceparent` when it sent one, named by its route template
 * (`POST /v1/conversations/{id}/messages`) once the route is known, with the standard `http.*` attributes: never the
 * path or the query (their ids and tokens, as in the access log). What the request does runs inside it; its trace id
 * goes to the log lines of the request beside its request id (`res.locals.traceId`).
 */
export function traceRequests(tracing: Tracing): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const parent = tracing.extract(req.headers);
    const span = tracing.startSpan(
      req.method,
      {
        kind: SPAN_KIND.server,
        attributes: {
          'http.request.method': req.method,
          'network.protocol.version': req.httpVersion,
          'switchboard.request_id': res.locals.requestId as string,
        },
      },
      parent,
    );
    const trace: RequestTrace = { span, parent };
    res.locals.trace = trace;
    res.locals.traceId = span.spanContext().traceId;
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      const route = (res.locals.route as string | undefined) ?? serverRoute(req.path);
      if (route) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      if (res.headersSent) {
        span.setAttribute('http.response.status_code', res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SPAN_STATUS_ERROR });
      } else {
        // The client went before an answer was written.
        span.setAttribute('error.type', 'connection_closed');
      }
      span.end();
    };
    res.on('finish', done);
    res.on('close', done);
    tracing.runIn(span, parent, next);
  };
}

/**
 * Back inside the request's span after a middleware that read the body: its stream's events carry the context of the
 * connection, not the request's, so what follows the JSON parser would otherwise run outside any trace.
 */
export function resumeRequestTrace(tracing: Tracing): RequestHandler {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const trace = res.locals.trace as RequestTrace | undefined;
    if (trace) tracing.runIn(trace.span, trace.parent, next);
    else next();
  };
}
