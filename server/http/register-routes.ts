import type { NextFunction, Request, Response, Router } from 'express';
import { addRoute, createRouter, findRoute } from 'rou3';
import * as z from 'zod';
import { onFirstUse } from '../../db/prepare-on-first-use.js';
import type { EnvironmentScope } from '../../db/scope.js';
import type { AppContext } from '../context.js';
import { ServiceError } from '../errors.js';
import { credentialOf } from '../recordings/credential.js';
import { authenticate } from './authenticate.js';
import { type AnyRoute, queryOf } from './route.js';
import { refuseNul, refuseNulInUrl } from './text-rules.js';
import { parseOrThrow } from './validate.js';

/** `/v1/projects/{id}` → `/v1/projects/:id`. */
const toRouterPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

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

type RouteHandler = (req: Request, res: Response) => Promise<void>;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The route's parameters as Express gave them: percent-decoded; undefined when one does not decode. */
function decodeParams(params: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!params) return {};
  const decoded: Record<string, string> = {};
  for (const name in params) {
    const value = params[name];
    try {
      decoded[name] = value.includes('%') ? decodeURIComponent(value) : value;
    } catch {
      return undefined;
    }
  }
  return decoded;
}

/**
 * Mounts every route of the table: authenticate → parse → handler → JSON (or the handler's event stream).
 *
 * A request finds its route with one lookup in a tree of every path, one node per segment (rou3, h3's router), not
 * by Express trying each route's pattern in turn: with the routes grouped by their first two segments (the design
 * before), a message POST still went through ≈17 layers, a regular expression and a URL parse each; a radix tree
 * (find-my-way) took 46,000 instructions off it (635,800 → 589,600 outside garbage collection; callgrind). rou3
 * rather than find-my-way because it builds its tree without generating code: find-my-way compiled a function per
 * route and per tree node, which a server pays before its first API answer. Serve → first API answer, medians of
 * 30 alternating starts on an existing data folder: 226 → 220 ms on Node.js 20, 170 → 154 ms on Node.js 26; a
 * lookup costs 0.17 µs against 0.08 (a message POST costs ≈130 µs). Semantics kept from Express: a trailing slash
 * is ignored, parameters are percent-decoded, HEAD is answered by the GET route, a path or method that is not in
 * the table falls through to the 404 after the API.
 */
export function registerRoutes(router: Router, app: AppContext, routes: readonly AnyRoute[]): void {
  const table = createRouter<RouteHandler>();
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`Route registered twice: ${key}`);
    seen.add(key);
    const handle = routeHandler(app, route);
    const method = route.method.toUpperCase();
    const path = toRouterPath(route.path);
    addRoute(table, method, path, handle);
    if (method === 'GET') addRoute(table, 'HEAD', path, handle);
  }
  router.use((req: Request, res: Response, next: NextFunction) => {
    const found = findRoute(table, req.method, req.path);
    const params = found && decodeParams(found.params);
    if (!found || !params) {
      // A plain OPTIONS (a browser's preflight was answered before, by the CORS policy) learns what the path allows.
      const allowed = req.method === 'OPTIONS' ? METHODS.filter((method) => findRoute(table, method, req.path)) : [];
      if (allowed.length === 0) return next();
      res.set('Allow', allowed.join(', ')).status(204).end();
      return;
    }
    req.params = params;
    found.data(req, res).catch(next);
  });
}

/** What answers one route once the table found it. */
function routeHandler(app: AppContext, route: AnyRoute): RouteHandler {
  const runtime = RUNTIME_AUTH.has(route.auth);
  // At the route's first request, as its body's (server/shared/schemas.ts): a project-environment route's query is
  // its own extended with `environment`, a new schema.
  const querySchema = onFirstUse(() => queryOf(route));
  // Read once here, not per request: route objects differ in shape, and reading them on every request made those
  // reads megamorphic, ≈18,000 instructions per message POST (callgrind).
  const bodySchema = route.body ?? NOTHING;
  const { handler, eventStream } = route;
  const status = route.status ?? 200;
  return async (req, res) => {
    refuseNulInUrl(req);
    res.locals.route = route.path; // for the access log
    const auth = await authenticate(app, route, req);
    if (auth?.kind === 'key') {
      // A promise only when the count is in Redis: a server alone awaits nothing more than it did.
      const admitted = app.services.keyRateLimits.admit(auth.keyId, res);
      if (admitted) await admitted;
    }
    let observed: ObservedRequest | undefined;
    if (runtime && auth && auth.kind !== 'session' && 'scope' in auth) {
      observed = { scope: auth.scope, route: route.path, credential: auth.kind };
      res.locals.observed = observed;
      // A lookup, and nothing more, unless the environment is being recorded.
      app.services.recordings.captureRequest(auth.scope, req, res, credentialOf(auth));
    }
    // Faults injected into the environment reach its keys' and tokens' calls only, never a dashboard session's (which
    // must stay able to switch them off). Undefined, not a promise, when there are none.
    if (auth && (auth.kind === 'key' || auth.kind === 'chat' || auth.kind === 'rtc')) {
      const faulted = app.services.faults.requestFault(auth.scope);
      if (faulted) await faulted;
    }
    // Without a query string (most requests) and a schema to default from, there is nothing to parse.
    const schema = querySchema();
    const query = schema || req.url.includes('?') ? parseOrThrow(schema ?? NOTHING, req.query, 'query') : {};
    const input = readBody(req);
    refuseNul(input, 'body');
    const body = parseOrThrow(bodySchema, input, 'body');
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
    // The webhook deliveries of what the request changed are in the store before it is acknowledged.
    const queued = app.services.webhooks.worker.queued();
    if (queued) await queued;
    // The handler has answered with a stream, which stays open after it returns.
    if (eventStream) return;
    if (status === 204) res.status(204).end();
    else writeJson(res, status, result);
  };
}
