import type { EnvironmentScope } from '../db/scope.js';
import { ServiceError } from './errors.js';

/**
 * The testing tools (reset, snapshots, test clock, faults, triggers) act on development and staging only: production's data and
 * traffic are a live app's. `why` says so for the tool asked, and what to use instead.
 */
export function refuseProduction(scope: EnvironmentScope, why: string): void {
  if (scope.environment === 'production') throw new ServiceError('SERVICE_PRODUCTION_ENVIRONMENT', why);
}
