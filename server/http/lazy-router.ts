import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * A handler whose module loads on its first request rather than at start-up: for what the first request does not
 * need (the API reference, the OpenAPI document, the API itself; see startServer), so that a server answers its
 * first request sooner. Requests that arrive while it loads wait for it; once loaded it is called directly. A
 * failed load is forwarded to the error middleware and tried again on the next request.
 */
export function lazyHandler(load: () => Promise<RequestHandler>): RequestHandler {
  let loaded: RequestHandler | undefined;
  let loading: Promise<RequestHandler> | undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    if (loaded) return loaded(req, res, next);
    loading ??= load().then(
      (handler) => {
        loaded = handler;
        return handler;
      },
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    loading.then((handler) => handler(req, res, next), next);
  };
}
