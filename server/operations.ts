/**
 * The API's operations as types, keyed by `operationId`: for each route of the table its method, path, path
 * parameters, query, body and response. The SDK imports this with `import type` (nothing of the server reaches its
 * bundle) and types every call with it; see docs/sdk.md. Types only: this module has no run-time content.
 */
import type * as z from 'zod';
import type { environmentQuery } from './environments.js';
import type { AuthMode, PathParams, RouteDefinition } from './http/route.js';
import type { routes } from './routes.js';

/**
 * A request as the SDK takes it: the schema's input, except for fields the server lower-cases or
 * coerces before checking (environment, limit), whose zod input type is `unknown`; those take the
 * checked type instead, so that the compiler still catches a typo.
 */
export type RequestOf<S extends z.ZodType> = {
  [K in keyof z.input<S>]: unknown extends z.input<S>[K] ? z.output<S>[K & keyof z.output<S>] : z.input<S>[K];
};

/** `{environment?}`, which the route table adds to the query of `project-environment` routes (see `queryOf`). */
type EnvironmentInput = RequestOf<ReturnType<typeof environmentQuery>>;

type ParamsOf<P extends string> = [PathParams<P>] extends [never] ? undefined : Record<PathParams<P>, string>;

type OperationQuery<A extends AuthMode, Q> = A extends 'project-environment'
  ? (Q extends z.ZodType ? RequestOf<Q> : unknown) & EnvironmentInput
  : Q extends z.ZodType
    ? RequestOf<Q>
    : undefined;

/**
 * One route's operation, read from the type arguments `defineRoute` kept: `params` (the path's parameters by name),
 * `query` and `body` are `undefined` where the route has none, `response` where it answers no JSON (a 204, or the
 * event stream, which the SDK reads record by record).
 */
type OperationOf<Route> =
  Route extends RouteDefinition<infer P, infer A, infer B, infer Q, infer R, string, infer M>
    ? {
        method: M;
        path: P;
        params: ParamsOf<P>;
        query: OperationQuery<A, Q>;
        body: B extends z.ZodType ? RequestOf<B> : undefined;
        response: R extends z.ZodType ? z.output<R> : undefined;
      }
    : never;

type Route = (typeof routes)[number];

/** Every operation of the API by `operationId`: `Operations['listApiKeys']['response']` is what that route answers. */
export type Operations = { [R in Route as R['operationId']]: OperationOf<R> };

export type OperationId = keyof Operations;
