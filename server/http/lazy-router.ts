import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * A handler whose module loads on its first request rather than at start-up: for pages no API call needs (the
 * API reference, the OpenAPI document), so that a server answers its first request sooner. A failed load is
 * forwarded to the error middleware and tried again on the next request.
 */
export function lazyHandler(load: () => Promise<RequestHandler>): RequestHandler {
  let loading: Promise<RequestHandler> | undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    loading.then((handler) => handler(req, res, next), next);
  };
}
