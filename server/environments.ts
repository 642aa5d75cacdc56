import * as z from 'zod';
import { onFirstUse } from '../db/prepare-on-first-use.js';
import { ENVIRONMENTS } from './environment-names.js';

export {
  ENVIRONMENT_SEGMENTS,
  ENVIRONMENTS,
  type Environment,
  parseEnvironmentAlias,
  upperEnvironment,
} from './environment-names.js';

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

/**
 * Query of session routes that act on one environment: `?environment=`, default development. Built at the first
 * request that reads it, as the routes' own queries are (see http/route.ts).
 */
export const environmentQuery = onFirstUse(() =>
  z.strictObject({
    environment: environmentSchema
      .meta({ description: 'The project environment acted in (default development); unknown values are refused.' })
      .optional()
      .default('development'),
  }),
);
