import type { Context, Span } from '@opentelemetry/api';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { serverRoute } from '../http/access-log.js';
import { SPAN_KIND, SPAN_STATUS_ERROR, type Tracing } from './tracing.js';

interface RequestTrace {
  span: Span;
  /** The caller's context with the request's span in it: what the request's work runs in. */
  context: Context;
}

const SERVER_SPAN = { kind: SPAN_KIND.server };

/**
 * Ends the request's span: `close` is the one event every response emits, after `finish` when it was answered, alone
 * when the client went first. A listener shared by all responses (`this` is the response), so that a request adds one
 * listener and no closure.
 */
function endRequestSpan(this: Response): void {
  const { span } = this.locals.trace as RequestTrace;
  const route = (this.locals.route as string | undefined) ?? serverRoute(this.req.path);
  if (route) {
    span.updateName(`${this.req.method} ${route}`);
    span.setAttribute('http.route', route);
  }
  if (this.headersSent) {
    span.setAttribute('http.response.status_code', this.statusCode);
    if (this.statusCode >= 500) span.setStatus({ code: SPAN_STATUS_ERROR });
  } else {
    // The client went before an answer was written.
    span.setAttribute('error.type', 'connection_closed');
  }
  span.end();
}

/**
 * One server span a request, child of the caller's `traceparent` when it sent one, named by its route template
 * (`POST /v1/conversations/{id}/messages`) once the route is known, with the standard `http.*` attributes: never the
 * path or the query (their ids and tokens, as in the access log). What the request does runs inside it; its trace id
 * goes to the log lines of the request beside its request id (`res.locals.traceId`). A request the sampler leaves out
 * gets a span that records nothing (it still carries the trace on, to webhooks): no attributes, no listener.
 */
export function traceRequests(tracing: Tracing): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const parent = req.headers.traceparent === undefined ? tracing.root : tracing.extract(req.headers);
    const span = tracing.startSpan(req.method, SERVER_SPAN, parent);
    const trace: RequestTrace = { span, context: tracing.contextWith(parent, span) };
    res.locals.trace = trace;
    res.locals.traceId = span.spanContext().traceId;
    if (span.isRecording()) {
      span.setAttributes({
        'http.request.method': req.method,
        'network.protocol.version': req.httpVersion,
        'switchboard.request_id': res.locals.requestId as string,
      });
      res.on('close', endRequestSpan);
    }
    tracing.runIn(trace.context, next);
  };
}

/**
 * Back inside the request's span after a middleware that read the body: its stream's events carry the context of the
 * connection, not the request's, so what follows the JSON parser would otherwise run outside any trace.
 */
export function resumeRequestTrace(tracing: Tracing): RequestHandler {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const trace = res.locals.trace as RequestTrace | undefined;
    if (trace) tracing.runIn(trace.context, next);
    else next();
  };
}
