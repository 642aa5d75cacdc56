import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { EnvironmentScope } from '../../db/scope.js';
import type { AppContext } from '../context.js';
import { ServiceError } from '../errors.js';
import { authenticate } from './authenticate.js';
import { type AnyRoute, queryOf } from './route.js';
import { parseOrThrow } from './validate.js';

/** `/v1/projects/{id}` → `/v1/projects/:id`. */
export const toExpressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** A body is JSON or absent; an absent body reads as `{}` so that the schema names what is missing. */
function readBody(req: Request): unknown {
  if (!hasBody(req)) return {};
  if (!req.is('application/json') && !req.is('+json')) {
    throw new ServiceError(
      'SERVICE_UNSUPPORTED_MEDIA_TYPE',
      'Send the request body as JSON (Content-Type: application/json).',
    );
  }
  return req.body;
}

/**
 * `res.status(status).json(body)` without Express's general machinery (content-type lookup and charset parsing,
 * ETag and freshness checks, all unused here). Same headers and body. Without it a message POST costs ≈15% more
 * CPU (258 against 218 µs; one subscriber, pinned, medians of three 10 s runs of `BENCH_ONLY=chat`, 2026-11-23).
 */
function writeJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body) ?? '';
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Routes called with runtime credentials: what the observability log and metrics are about. */
const RUNTIME_AUTH = new Set<AnyRoute['auth']>(['key', 'key-or-chat', 'rtc']);

/**
 * Set on `res.locals.observed` once a runtime route's credential is accepted: from then on the
 * request has a trustworthy project environment, and its outcome is recorded (see app.ts).
 */
export interface ObservedRequest {
  scope: EnvironmentScope;
  route: string;
  credential: 'key' | 'chat' | 'rtc';
}

/** What a route without a body or query schema accepts: nothing (strict everywhere). */
const NOTHING = z.strictObject({});

/** `/v1/chat/conversations/{room}` → `/v1/chat`: the group a route is mounted in. */
const groupOf = (path: string) => path.split('/').slice(0, 3).join('/');

/**
 * Mounts every route of the table: authenticate → parse → handler → JSON (or the handler's event stream).
 * Routes are grouped by their first two path segments (`/v1/chat`, `/v1/projects`, …), one router each:
 * Express tries a router's layers one after another, so a request is matched against a handful of groups
 * and then its own group's routes, not against every route declared before it.
 */
export function registerRoutes(router: Router, app: AppContext, routes: readonly AnyRoute[]): void {
  const seen = new Set<string>();
  const groups = new Map<string, Router>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`Route registered twice: ${key}`);
    seen.add(key);

    const prefix = groupOf(route.path);
    let group = groups.get(prefix);
    if (!group) {
      group = express.Router({ strict: false });
      groups.set(prefix, group);
      router.use(prefix, group);
    }
    const runtime = RUNTIME_AUTH.has(route.auth);
    const querySchema = queryOf(route);
    // Read once here, not per request: route objects differ in shape, and reading them on every request made those
    // reads megamorphic, ≈18,000 instructions per message POST (callgrind).
    const bodySchema = route.body ?? NOTHING;
    const { handler, eventStream } = route;
    const status = route.status ?? 200;
    group[route.method](toExpressPath(route.path.slice(prefix.length)) || '/', async (req: Request, res: Response) => {
      const auth = await authenticate(app, route, req);
      if (auth?.kind === 'key') app.services.keyRateLimits.admit(auth.keyId, res);
      let observed: ObservedRequest | undefined;
      if (runtime && auth && auth.kind !== 'session' && 'scope' in auth) {
        observed = { scope: auth.scope, route: route.path, credential: auth.kind };
        res.locals.observed = observed;
      }
      // Without a query string (most requests) and a schema to default from, there is nothing to parse.
      const query =
        querySchema || req.url.includes('?') ? parseOrThrow(querySchema ?? NOTHING, req.query, 'query') : {};
      const body = parseOrThrow(bodySchema, readBody(req), 'body');
      const result = await handler({
        app,
        auth,
        params: req.params,
        body,
        query,
        requestId: res.locals.requestId as string,
        req,
        res,
      });
      if (observed) app.services.observability.requestServed(observed.scope);
      // The handler has answered with a stream, which stays open after it returns.
      if (eventStream) return;
      if (status === 204) res.status(204).end();
      else writeJson(res, status, result);
    });
  }
}
