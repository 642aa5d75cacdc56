import { z } from 'zod';
import { ENVIRONMENTS, type Environment } from '../db/schema/environment.js';

export { ENVIRONMENTS, type Environment };

/** The short segment people see in key text (`sb_dev_…`), and the CLI's aliases. */
export const ENVIRONMENT_SEGMENTS: Record<Environment, string> = {
  development: 'dev',
  staging: 'stg',
  production: 'prod',
};

const INVALID_ENVIRONMENT = `must be one of ${ENVIRONMENTS.join(', ')} (any letter case)`;

/**
 * The API's environment input: the canonical names in any letter case, nothing else. An unknown
 * value is refused, never defaulted. (The short aliases belong to the command-line tool.)
 */
export const environmentSchema = z
  .preprocess(
    (v) => (typeof v === 'string' ? v.toLowerCase() : v),
    z.enum(ENVIRONMENTS, { error: INVALID_ENVIRONMENT }),
  )
  .meta({
    description: `Project environment: ${ENVIRONMENTS.join(', ')}. Any letter case is accepted.`,
    example: 'development',
  });

/** Query of session routes that act on one environment: `?environment=`, default development. */
export const environmentQuery = z.strictObject({
  environment: environmentSchema
    .meta({ description: 'The project environment acted in (default development); unknown values are refused.' })
    .optional()
    .default('development'),
});

/** Accepts the canonical names and the CLI aliases (dev, stg, prod), any letter case. */
export function parseEnvironmentAlias(value: string): Environment | undefined {
  const lower = value.toLowerCase();
  return ENVIRONMENTS.find((env) => env === lower || ENVIRONMENT_SEGMENTS[env] === lower);
}

export const upperEnvironment = (env: Environment) => env.toUpperCase() as Uppercase<Environment>;
