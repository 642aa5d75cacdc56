import * as z from 'zod';
import { environmentSchema } from '../environments.js';
import { timestampSchema } from '../shared/schemas.js';

/** What can be injected into an environment's traffic. The `webhook.*` kinds shape deliveries, `api.*` REST calls. */
export const FAULT_KINDS = [
  'webhook.duplicate',
  'webhook.out_of_order',
  'webhook.delay',
  'webhook.failure',
  'api.unavailable',
  'api.latency',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The kinds that wait: `delayMs` is required for them (out_of_order has a default), refused for the others. */
export const DELAYING_KINDS: ReadonlySet<FaultKind> = new Set(['webhook.delay', 'webhook.out_of_order', 'api.latency']);

/** How long a held-back delivery waits when `webhook.out_of_order` names no `delayMs`: long enough to be overtaken. */
export const DEFAULT_OUT_OF_ORDER_MS = 3_000;
export const MAX_DELAY_MS = 60_000;
export const DEFAULT_EXPIRES_IN_SECONDS = 600;
export const MAX_EXPIRES_IN_SECONDS = 86_400;

const kindSchema = z.lazy(() =>
  z.enum(FAULT_KINDS).meta({
    description:
      '`webhook.duplicate`: a delivery that succeeded is sent a second time (same `evt_` id, fresh signature). ' +
      '`webhook.out_of_order`: a delivery is held back `delayMs` (default 3000) before its first attempt, so that ' +
      'later ones overtake it. `webhook.delay`: deliveries go out `delayMs` late. `webhook.failure`: an attempt is not ' +
      'sent but recorded as failed, then retried on the usual schedule. `api.unavailable`: REST calls with the ' +
      'environment’s keys or tokens answer 503 `SERVICE_FAULT_INJECTED` with `Retry-After`. `api.latency`: those ' +
      'calls wait `delayMs` first.',
    example: 'webhook.duplicate',
  }),
);

/** A share, 1 to 100 percent (default all), each case drawn at random. */
const percentSchema = (description: string) => z.int().min(1).max(100).optional().default(100).meta({ description });

export const createFaultBody = z.lazy(() =>
  z
    .strictObject({
      kind: kindSchema,
      percent: percentSchema('The share of deliveries, attempts or requests it applies to, each drawn at random.'),
      delayMs: z
        .int()
        .min(1)
        .max(MAX_DELAY_MS)
        .optional()
        .meta({
          description:
            'For `webhook.delay` and `api.latency` (required) and `webhook.out_of_order` (default 3000): how long, ' +
            'in milliseconds, 1 to 60000. Refused for the other kinds.',
        }),
      expiresInSeconds: z
        .int()
        .min(1)
        .max(MAX_EXPIRES_IN_SECONDS)
        .optional()
        .default(DEFAULT_EXPIRES_IN_SECONDS)
        .meta({ description: 'When the fault ends by itself: 1 s to 24 h, default 10 minutes.' }),
    })
    .superRefine((body, ctx) => {
      const delays = DELAYING_KINDS.has(body.kind);
      if (!delays && body.delayMs !== undefined)
        ctx.addIssue({ code: 'custom', path: ['delayMs'], message: `delayMs does not apply to ${body.kind}` });
      if (delays && body.kind !== 'webhook.out_of_order' && body.delayMs === undefined)
        ctx.addIssue({ code: 'custom', path: ['delayMs'], message: `delayMs is required for ${body.kind}` });
    })
    .meta({ id: 'CreateFaultRequest' }),
);
export type CreateFaultInput = z.output<typeof createFaultBody>;

export const faultSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'flt_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      environment: environmentSchema,
      kind: kindSchema,
      percent: z.int().meta({ description: 'The share it applies to, 1 to 100.' }),
      delayMs: z.int().nullable().meta({ description: 'For the kinds that delay: how long; null for the others.' }),
      createdAt: timestampSchema,
      expiresAt: timestampSchema.meta({ description: 'When it stops applying by itself.' }),
    })
    .meta({ id: 'Fault' }),
);

export const removedFaultsSchema = z.lazy(() =>
  z
    .object({ removed: z.int().min(0).meta({ description: 'How many active faults were removed.' }) })
    .meta({ id: 'RemovedFaults' }),
);

export const SOCKET_KINDS = ['realtime', 'signaling', 'all'] as const;

export const dropSocketsBody = z.lazy(() =>
  z
    .strictObject({
      percent: percentSchema('The share of the sockets to close, each drawn at random.'),
      kind: z
        .enum(SOCKET_KINDS)
        .optional()
        .default('all')
        .meta({ description: 'Chat realtime sockets, signaling sockets, or both (default).' }),
    })
    .meta({ id: 'DropSocketsRequest' }),
);

export const droppedSocketsSchema = z.lazy(() =>
  z
    .object({
      closed: z
        .int()
        .min(0)
        .meta({
          description:
            'Sockets this server closed. With several nodes, each other node closes its share of its own sockets when ' +
            'the bus brings it the request; those are not counted here.',
        }),
    })
    .meta({ id: 'DroppedSockets' }),
);
