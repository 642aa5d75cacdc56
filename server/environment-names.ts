import { ENVIRONMENTS, type Environment } from '../db/schema/environment.js';

export { ENVIRONMENTS, type Environment };

/*
 * The environments' names, with nothing else loaded: the command-line tool reads them at start, and its client
 * commands start faster without zod (environments.ts adds the API's schemas).
 */

/** The short segment people see in key text (`sb_dev_…`), and the CLI's aliases. */
export const ENVIRONMENT_SEGMENTS: Record<Environment, string> = {
  development: 'dev',
  staging: 'stg',
  production: 'prod',
};

/** Accepts the canonical names and the CLI aliases (dev, stg, prod), any letter case. */
export function parseEnvironmentAlias(value: string): Environment | undefined {
  const lower = value.toLowerCase();
  return ENVIRONMENTS.find((env) => env === lower || ENVIRONMENT_SEGMENTS[env] === lower);
}

export const upperEnvironment = (env: Environment) => env.toUpperCase() as Uppercase<Environment>;
