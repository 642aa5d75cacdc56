import type * as z from 'zod';
import { toIso, toIsoOrNull } from '../clock.js';
import type { environmentClockSchema } from './schemas.js';
import type { EnvironmentClock } from './service.js';

export const presentEnvironmentClock = ({ scope, now, offsetMs, advancedAt }: EnvironmentClock) =>
  ({
    environment: scope.environment,
    now: toIso(now),
    offsetMs,
    advancedAt: toIsoOrNull(advancedAt),
  }) satisfies z.input<typeof environmentClockSchema>;
