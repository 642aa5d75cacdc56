import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { ENVIRONMENTS, type Environment } from './schema/environment.js';

/**
 * Where environment-scoped data lives: a project and one of its environments. It always comes from
 * the credential (an API key's stored record, a token's signed claim) or, on session routes, from
 * the validated `?environment=` query; never from a request body.
 */
export interface EnvironmentScope {
  readonly projectId: string;
  readonly environment: Environment;
}

interface ScopedTable {
  projectId: SQLiteColumn;
  environment: SQLiteColumn;
}

/**
 * The one filter for environment-scoped tables: every read, update and delete of such a table adds
 * it, so a row of another project or environment is simply not found (404, never 403).
 */
export function inScope(table: ScopedTable, scope: EnvironmentScope, ...conditions: (SQL | undefined)[]): SQL {
  return and(eq(table.projectId, scope.projectId), eq(table.environment, scope.environment), ...conditions) as SQL;
}

/** The two column values a new row of an environment-scoped table takes from its scope. */
export function scopeValues(scope: EnvironmentScope): { projectId: string; environment: Environment } {
  return { projectId: scope.projectId, environment: scope.environment };
}

/**
 * `inScope` for prepared statements: the same filter with `projectId` and `environment` as
 * placeholders, so that a hot query is prepared once and still scoped. Execute the statement with
 * `{...scope, ...}`.
 */
export function inScopePrepared(table: ScopedTable, ...conditions: (SQL | undefined)[]): SQL {
  return and(
    eq(table.projectId, sql.placeholder('projectId')),
    eq(table.environment, sql.placeholder('environment')),
    ...conditions,
  ) as SQL;
}

/**
 * A scope as one flat string, for maps keyed by environment. Joined rather than built by a template literal, whose
 * result keeps its parts as a tree of strings for as long as a map keeps the key.
 */
export const scopeKey = ({ projectId, environment }: EnvironmentScope): string =>
  [projectId, environment].join('\u0000');

/** The `scopeKey` of each of a project's environments. */
export const projectScopeKeys = (projectId: string): string[] =>
  ENVIRONMENTS.map((environment) => scopeKey({ projectId, environment }));

/**
 * `inScope` for a row already in memory (a cached one): true only if it belongs to the scope, so that a cache
 * answers exactly what the scoped query would have.
 */
export function isInScope(row: { projectId: string; environment: Environment }, scope: EnvironmentScope): boolean {
  return row.projectId === scope.projectId && row.environment === scope.environment;
}
