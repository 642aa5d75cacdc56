import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { classifyStoreError, failedQuery } from '../../db/store-errors.js';
import { ServiceError } from '../errors.js';

/** How long a client is told to wait before retrying a request the database could not take. */
const STORE_RETRY_AFTER_SECONDS = 1;

/** `1048576` → `1 MB`, `2097153` → `2.0 MB`: whole units when exact, so that a limit reads as it was set. */
function byteSize(bytes: number, decimals = 1): string {
  for (const [unit, size] of [
    ['MB', 1024 * 1024],
    ['KB', 1024],
  ] as const) {
    if (bytes >= size) {
      return bytes % size === 0 ? `${bytes / size} ${unit}` : `${(bytes / size).toFixed(decimals)} ${unit}`;
    }
  }
  return `${bytes} bytes`;
}

/** body-parser's refusal of a body over its limit: the limit, and the body's size when its Content-Length said it. */
function tooLargeMessage(limit: number | undefined, length: number | undefined): string {
  if (limit === undefined) return 'The request body is too large.';
  const most = byteSize(limit);
  let size = '';
  if (length !== undefined && !Number.isNaN(length)) {
    // A body just over the limit needs more digits than 1.0 MB to show that it is over.
    let decimals = 1;
    while (decimals < 6 && Number.parseFloat(byteSize(length, decimals)) <= Number.parseFloat(most)) decimals++;
    size = ` (this one is ${byteSize(length, decimals)})`;
  }
  return `The request body is too large: at most ${most}${size}.`;
}

/** Errors raised below our code (body parser, router, the database) that are the client's doing, or no one's. */
function fromKnownCause(err: unknown): ServiceError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { type?: string; status?: number; code?: string; message?: string; limit?: number; length?: number };
  switch (e.type) {
    case 'entity.parse.failed':
      return new ServiceError('SERVICE_VALIDATION_FAILED', 'Malformed JSON in the request body.');
    case 'entity.too.large':
      return new ServiceError('SERVICE_PAYLOAD_TOO_LARGE', tooLargeMessage(e.limit, e.length));
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ServiceError('SERVICE_UNSUPPORTED_MEDIA_TYPE', e.message ?? 'Unsupported body encoding.');
    case 'request.aborted':
      return new ServiceError('SERVICE_VALIDATION_FAILED', 'The request was aborted by the client.');
  }
  switch (classifyStoreError(err)) {
    case 'conflict':
      // A unique index caught a race the service's own check missed.
      return new ServiceError('SERVICE_CONFLICT', 'The request conflicts with the current state; retry it.');
    case 'busy':
      return new ServiceError('SERVICE_UNAVAILABLE', 'The database is busy; retry the request.', {
        headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) },
      });
    case 'unavailable':
      return new ServiceError('SERVICE_UNAVAILABLE', 'The database cannot be reached; retry the request.', {
        headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) },
      });
    case 'unstorable-text':
      return new ServiceError(
        'SERVICE_VALIDATION_FAILED',
        'A text value in the request cannot be stored (a NUL character, or an invalid or too long text); nothing was changed.',
      );
  }
  // e.g. a path segment with malformed percent-encoding, rejected by the router.
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    if (e.status === 400) return new ServiceError('SERVICE_VALIDATION_FAILED', e.message ?? 'Bad request.');
    return new ServiceError('SERVICE_BAD_REQUEST', e.message ?? 'Bad request.', { status: e.status });
  }
  return undefined;
}

/**
 * The one place an error becomes a response: `{code, message, requestId}` with the request id also
 * in `X-Request-Id`. Anything unexpected is a 500 whose cause goes to the log, not to the client.
 */
export function errorMiddleware(
  logger: Logger,
  /** Told of every error answer after it is sent (observability); its own failure is only logged. */
  onAnswered?: (req: Request, res: Response, error: ServiceError) => void,
) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const requestId = res.locals.requestId as string;
    // With tracing on: the trace of the request, beside its id.
    const traceId = res.locals.traceId as string | undefined;
    let error = err instanceof ServiceError ? err : fromKnownCause(err);
    if (!error) {
      // A database error is logged by its query, without the values drizzle's message lists (they may be secrets).
      const query = failedQuery(err);
      logger.error(
        {
          ...(query ? { failedQuery: query } : { err }),
          requestId,
          ...(traceId && { traceId }),
          method: req.method,
          url: req.originalUrl,
        },
        'unhandled error',
      );
      error = new ServiceError('SERVICE_INTERNAL_ERROR', `Something went wrong on our side (request ${requestId}).`);
    } else if (error.code === 'SERVICE_VALIDATION_FAILED' && !(err instanceof ServiceError)) {
      // The database refused a text value: an input check missed it, and the query says which.
      const query = failedQuery(err);
      if (query)
        logger.warn(
          { query, requestId, ...(traceId && { traceId }), method: req.method, url: req.originalUrl },
          'the database refused a value',
        );
    }
    if (res.headersSent) res.end();
    else {
      const body = {
        code: error.code,
        message: error.message,
        requestId,
        ...(error.fields && { fields: error.fields }),
      };
      res.status(error.status).set(error.headers).json(body);
    }
    try {
      onAnswered?.(req, res, error);
    } catch (recordErr) {
      logger.warn({ err: recordErr, requestId }, 'could not record an error answer');
    }
  };
}
