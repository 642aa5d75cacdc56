import type * as z from 'zod';
import { toIso } from '../clock.js';
import type { environmentResetSchema } from './schemas.js';
import type { EnvironmentReset } from './service.js';

export const presentEnvironmentReset = ({ scope, removed, resetAt }: EnvironmentReset) =>
  ({
    environment: scope.environment,
    resetAt: toIso(resetAt),
    removed: { ...removed },
  }) satisfies z.input<typeof environmentResetSchema>;
