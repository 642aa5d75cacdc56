import type * as z from 'zod';
import { toIso } from '../clock.js';
import type { triggeredEventSchema } from './schemas.js';
import type { TriggeredEvent } from './service.js';

export const presentTriggeredEvent = ({ scope, event, objects, events, triggeredAt }: TriggeredEvent) =>
  ({
    event,
    environment: scope.environment,
    triggeredAt: toIso(triggeredAt),
    objects,
    events: [...events],
  }) satisfies z.input<typeof triggeredEventSchema>;
