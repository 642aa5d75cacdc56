import type { NextFunction, Request, Response } from 'express';
import type { IdGenerator } from '../ids.js';

/** Every response carries `X-Request-Id: req_…`; error bodies repeat it as `requestId`. */
export function requestId(ids: IdGenerator) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const id = ids.next('req');
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}
