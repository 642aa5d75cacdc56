import type { Request, Response } from 'express';
import * as z from 'zod';
import { onFirstUse } from '../../db/prepare-on-first-use.js';
import type { ProjectRole } from '../../db/schema/projects.js';
import type { EnvironmentScope } from '../../db/scope.js';
import type { AppContext } from '../context.js';
import { environmentQuery } from '../environments.js';
import type { ErrorCode } from '../error-codes.js';
import type { Capability } from '../roles/capabilities.js';

/** A route's own errors: each code with what it means on that route. */
export type RouteErrors = Partial<Record<ErrorCode, string>>;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call a route:
 * - `none`: anyone;
 * - `session`: a signed-in dashboard user;
 * - `project`: a session whose user is a member of the project in `{id}` and whose role holds the
 *   route's capability (non-members get the same 404 as a missing project);
 * - `project-environment`: a `project` route that acts in one environment of the project, named by the
 *   `?environment=` query (default development); authentication resolves it into `auth.scope`, as a key's
 *   credential does, so that handlers take their scope from `auth` on every environment-scoped route;
 * - `key`: a project API key, which brings the environment scope.
 * - `session-or-key`: either of the two;
 * - `rtc`: an RTC token (what SDK clients already hold), which brings scope, room and identity;
 * - `key-or-chat`: an API key (a server acting for its users) or a chat token (one end user);
 * - `admin`: the server's admin token (`sbadmin_…`), for what no project role covers (the node list).
 * - `admin-or-owner`: the admin token, or the session of an OWNER of any project of the server (the node list,
 *   which `switchboard status` shows whoever runs the server's projects).
 */
export type AuthMode =
  | 'none'
  | 'session'
  | 'project'
  | 'project-environment'
  | 'key'
  | 'session-or-key'
  | 'rtc'
  | 'key-or-chat'
  | 'admin'
  | 'admin-or-owner';

/** Routes a project member calls with a session, with or without an environment. */
export const isProjectRoute = (auth: AuthMode): auth is 'project' | 'project-environment' =>
  auth === 'project' || auth === 'project-environment';

/** Routes that take a project API key, alone or beside another credential. */
export const acceptsApiKey = (auth: AuthMode): boolean =>
  auth === 'key' || auth === 'session-or-key' || auth === 'key-or-chat';

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}
export interface SessionAuth {
  kind: 'session';
  user: SessionUser;
  sessionId: string;
}
export interface ProjectAuth extends SessionAuth {
  member: { projectId: string; role: ProjectRole };
}
export interface ProjectEnvironmentAuth extends ProjectAuth {
  scope: EnvironmentScope;
}
export interface KeyAuth {
  kind: 'key';
  keyId: string;
  scope: EnvironmentScope;
}
export interface ChatAuth {
  kind: 'chat';
  scope: EnvironmentScope;
  userId: string;
  /** The token's conversation rights floor: MEMBER unless a live-stream credential raised it. */
  chatScope: 'MEMBER' | 'MODERATOR' | 'ADMIN';
}
export interface AdminAuth {
  kind: 'admin';
  /** On an `admin-or-owner` route, the owner signed in, when the credential was a session rather than the token. */
  ownerId?: string;
}
export interface RtcAuth {
  kind: 'rtc';
  scope: EnvironmentScope;
  roomId: string;
  identity: string;
}

type AuthOf<A extends AuthMode> = A extends 'session'
  ? SessionAuth
  : A extends 'project'
    ? ProjectAuth
    : A extends 'project-environment'
      ? ProjectEnvironmentAuth
      : A extends 'key'
        ? KeyAuth
        : A extends 'session-or-key'
          ? SessionAuth | KeyAuth
          : A extends 'rtc'
            ? RtcAuth
            : A extends 'key-or-chat'
              ? KeyAuth | ChatAuth
              : A extends 'admin' | 'admin-or-owner'
                ? AdminAuth
                : null;

/** `'/v1/projects/{id}/members/{userId}'` → `'id' | 'userId'`. */
export type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}`
  ? K | PathParams<Rest>
  : never;

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<P extends string, A extends AuthMode, B, Q> {
  app: AppContext;
  auth: AuthOf<A>;
  params: Record<PathParams<P>, string>;
  body: Parsed<B>;
  query: Parsed<Q>;
  requestId: string;
  req: Request;
  res: Response;
}

export interface RouteDefinition<
  P extends string = string,
  A extends AuthMode = AuthMode,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
  O extends string = string,
  M extends HttpMethod = HttpMethod,
> {
  method: M;
  /** OpenAPI style: `/v1/projects/{id}`. */
  path: P;
  /** The operation's name in the OpenAPI document and in the SDK's operations map (server/operations.ts). */
  operationId: O;
  summary: string;
  description?: string;
  tag: string;
  auth: A;
  /** Required on project routes: the capability, or `null` where membership alone is enough. */
  capability?: Capability | null;
  body?: B;
  /** On `project-environment` routes, without `environment`: the route table adds it (see `queryOf`). */
  query?: Q;
  /** Success status; 204 answers with no body. Defaults to 200. */
  status?: 200 | 201 | 202 | 204;
  /** What the route answers, for the OpenAPI document and the SDK's types; never parsed (see shared/schemas.ts). */
  response?: R;
  /**
   * Instead of `response`: the route answers a Server-Sent Events stream (`text/event-stream`) that
   * its handler writes itself (see `serveEventStream`), and this is the schema of one record's data.
   */
  eventStream?: z.ZodType;
  /**
   * Errors this route can answer beyond the ones implied by its auth and inputs, each with what it means here; the
   * status comes from the code (server/error-codes.ts).
   */
  errors?: RouteErrors;
  // A method, not a function property: a route of any shape then still fits in `AnyRoute` (methods compare their
  // parameters both ways), so that `defineRoute` can return the route with its types for the operations map.
  handler(
    ctx: HandlerContext<P, A, B, Q>,
  ): Promise<R extends z.ZodType ? z.input<R> : undefined> | (R extends z.ZodType ? z.input<R> : undefined);
}

// biome-ignore lint/suspicious/noExplicitAny: the table holds routes of every shape.
export type AnyRoute = RouteDefinition<string, AuthMode, any, any, any>;

/**
 * Identity at run time; gives the handler its precise types at compile time, and keeps them in the route it returns
 * (operation id, method, path, schemas) for the SDK's operations map (server/operations.ts).
 */
export function defineRoute<
  const P extends string,
  const A extends AuthMode,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
  const O extends string = string,
  const M extends HttpMethod = HttpMethod,
>(route: RouteDefinition<P, A, B, Q, R, O, M>): RouteDefinition<P, A, B, Q, R, O, M> {
  const name = `${route.method.toUpperCase()} ${route.path}`;
  if (isProjectRoute(route.auth) && route.capability === undefined) {
    throw new Error(`${name}: a project route must name its capability`);
  }
  if (route.eventStream && (route.response || route.method !== 'get')) {
    throw new Error(`${name}: an event stream is a GET route without a JSON response`);
  }
  return route;
}

/** What a route without a query schema accepts: nothing (strict everywhere). */
const NO_QUERY = onFirstUse(() => z.strictObject({}));
const environmentQueries = new WeakMap<AnyRoute, z.ZodObject>();

/**
 * The query a route accepts and documents: its own, plus `environment` on `project-environment` routes, where
 * authentication has already read it into `auth.scope`. A route's own query may be a `z.lazy` of its object, built
 * when first read, as answers and bodies are (see shared/schemas.ts).
 */
export function queryOf(route: AnyRoute): z.ZodObject | undefined {
  const own = route.query ? objectOf(route.query) : undefined;
  if (route.auth !== 'project-environment') return own;
  let query = environmentQueries.get(route);
  if (!query) {
    query = (own ?? NO_QUERY()).extend(environmentQuery().shape);
    environmentQueries.set(route, query);
  }
  return query;
}

const objectOf = (query: z.ZodType): z.ZodObject =>
  (query instanceof z.ZodLazy ? query._zod.innerType : query) as z.ZodObject;
