import * as z from 'zod';
import { CONNECTION_KINDS } from '../../db/schema/observability.js';
import { DELIVERY_STATUSES } from '../../db/schema/webhooks.js';
import { environmentResetSchema } from '../environment-reset/schemas.js';
import { environmentSchema } from '../environments.js';
import { faultSchema, SOCKET_KINDS } from '../faults/schemas.js';
import { recordingSchema } from '../recordings/schemas.js';
import { cursorSchema, limitSchema, pageQuery } from '../shared/pagination.js';
import { timestampSchema } from '../shared/schemas.js';
import { EVENT_TYPES } from '../webhooks/catalogue.js';

export const connectionsQuery = z.lazy(() =>
  z.strictObject({
    kind: z.enum(CONNECTION_KINDS).optional().meta({ description: 'Only `signaling` or only `realtime` connections.' }),
    limit: limitSchema(),
    cursor: cursorSchema(),
  }),
);

export const errorsQuery = pageQuery;

/** The longest metrics window: 1,440 one-minute buckets per series. */
export const MAX_WINDOW_MINUTES = 24 * 60;
const UNIT_MINUTES = { m: 1, h: 60, d: 24 * 60 } as const;

export const windowSchema = z.lazy(() =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,4}[mhd]$/, 'must be a number and a unit m, h or d, e.g. 15m, 1h, 24h')
    .transform((w, ctx) => {
      const minutes = Number(w.slice(0, -1)) * UNIT_MINUTES[w.slice(-1) as keyof typeof UNIT_MINUTES];
      if (minutes > MAX_WINDOW_MINUTES) {
        ctx.addIssue({ code: 'custom', message: 'must be at most 24h' });
        return z.NEVER;
      }
      return { text: w, minutes };
    })
    .meta({ description: 'How far back: `15m`, `1h`, `24h` … at most 24h (default 1h).', example: '1h' }),
);

export const metricsQuery = z.lazy(() =>
  z.strictObject({
    window: windowSchema.prefault('1h'),
  }),
);

export const usageQuery = z.lazy(() =>
  z.strictObject({
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a calendar month as YYYY-MM, e.g. 2026-01')
      .optional()
      .meta({ description: 'The calendar month (UTC), `YYYY-MM`; default the current one.', example: '2026-01' }),
  }),
);

export const connectionSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'conn_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      kind: z.enum(CONNECTION_KINDS),
      environment: environmentSchema,
      identity: z.string().meta({ description: 'The RTC identity, or the chat user id.' }),
      roomId: z.string().nullable().meta({ description: 'Signaling: the room joined.' }),
      conversationId: z
        .string()
        .nullable()
        .meta({ description: 'Null for realtime sockets, which carry every conversation of their user.' }),
      connectedAt: timestampSchema,
      disconnectedAt: timestampSchema.nullable().meta({ description: 'Null while the connection is open.' }),
      closeCode: z.number().int().nullable(),
      closeReason: z.string().nullable(),
      nodeId: z
        .string()
        .nullable()
        .meta({
          description:
            'The node that holds (or held) it, `node_…`: with several servers on one database, which one (see ' +
            '`GET /v1/server/nodes`). Null for connections recorded before nodes were named.',
        }),
      media: z
        .object({
          bytesIn: z.number().int().meta({ description: 'RTP payload bytes the server received from it.' }),
          bytesOut: z.number().int().meta({ description: 'RTP payload bytes the server sent to it.' }),
          packetsLostIn: z
            .number()
            .int()
            .meta({ description: 'Packets of its tracks lost before the server (sequence-number gaps on receipt).' }),
          packetsLostOut: z
            .number()
            .int()
            .meta({ description: 'Packets the server sent it that it reports lost (its RTCP receiver reports).' }),
        })
        .nullable()
        .meta({
          description:
            'What its media through the server carried (`serve --rtc-media sfu`), written when it ends. Null while ' +
            'open, for realtime sockets, and when media goes peer to peer (the server never sees it).',
        }),
    })
    .meta({ id: 'Connection' }),
);

export const errorRecordSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'err_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      requestId: z.string().meta({ description: 'The `requestId` and `X-Request-Id` of the answer.' }),
      status: z.number().int(),
      code: z.string(),
      message: z.string(),
      method: z.string(),
      route: z.string().meta({ example: '/v1/rooms/{id}', description: 'The route pattern, not the raw path.' }),
      credential: z.enum(['key', 'chat', 'rtc']),
      environment: environmentSchema,
      occurredAt: timestampSchema,
    })
    .meta({ id: 'ErrorRecord' }),
);

const pointSchema = z.object({ at: timestampSchema, value: z.number().int() });
const seriesSchema = z.array(pointSchema);

export const metricsSchema = z.lazy(() =>
  z
    .object({
      environment: environmentSchema,
      window: z.string(),
      resolution: z.literal('1m'),
      series: z.object({
        requests: seriesSchema,
        errors: seriesSchema,
        messages: seriesSchema,
        connections: seriesSchema.meta({ description: 'Connections opened in the minute.' }),
        webhookDeliveries: z.object({ succeeded: seriesSchema, failed: seriesSchema }),
        telemetryEvents: seriesSchema,
      }),
    })
    .meta({ id: 'Metrics' }),
);

export const diagnosticsSchema = z.lazy(() =>
  z
    .object({
      version: z.string(),
      uptimeSeconds: z.number().int(),
      mode: z.enum(['local', 'production']),
      environment: environmentSchema,
      database: z.object({ bytes: z.number().int() }),
      webhookQueue: z.object({
        pending: z.number().int(),
        oldestPendingAt: timestampSchema.nullable(),
        endpoints: z
          .array(
            z.object({
              webhookId: z.string(),
              pending: z.number().int().meta({ description: 'Deliveries of the endpoint waiting to go out.' }),
              deliveredLastMinute: z
                .number()
                .int()
                .meta({ description: 'Deliveries of the endpoint that succeeded over the last minute.' }),
            }),
          )
          .meta({ description: 'Per endpoint with deliveries pending or delivered over the last minute, by id.' }),
      }),
      connections: z.object({ signaling: z.number().int(), realtime: z.number().int() }),
      recentErrorRate: z
        .number()
        .meta({ description: 'Errors per runtime request over the last 5 minutes, 0 to 1 (0 without requests).' }),
      media: z
        .object({
          connections: z.number().int().meta({ description: 'Signaling connections with media that ended.' }),
          bytesIn: z.number().int().meta({ description: 'RTP payload bytes the server received from them.' }),
          bytesOut: z.number().int().meta({ description: 'RTP payload bytes the server sent to them.' }),
          packetsLostIn: z.number().int().meta({ description: 'Packets lost on the way to the server.' }),
          packetsLostOut: z.number().int().meta({ description: 'Packets lost on the way to subscribers.' }),
        })
        .meta({
          description:
            'Media through the server (`serve --rtc-media sfu`) of the signaling connections that ended in the last ' +
            'hour, from the connection log (`media` of each); zeros when media goes peer to peer.',
        }),
    })
    .meta({ id: 'Diagnostics' }),
);

export const usageSchema = z.lazy(() =>
  z
    .object({
      environment: environmentSchema,
      period: z.object({ month: z.string(), from: timestampSchema, to: timestampSchema }),
      messages: z.number().int(),
      connectionMinutes: z.number().int(),
      webhookDeliveries: z.number().int().meta({
        description:
          'Webhook delivery attempts made in the month, each retry included (a delivery retried twice counts 3).',
      }),
      storageBytes: z.number().int(),
    })
    .meta({ id: 'Usage' }),
);

// ── The live event stream ────────────────────────────────────────────────────────────────────────

const liveEvent = <T extends string, D extends z.ZodType>(type: z.ZodType<T, T>, data: D, description: string) =>
  z
    .object({
      type,
      at: timestampSchema.meta({ description: 'When it happened.' }),
      environment: environmentSchema,
      data,
    })
    .meta({ description });

const liveConnection = z.lazy(() =>
  z.object({
    id: z.string().meta({ example: 'conn_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
    kind: z.enum(CONNECTION_KINDS),
    identity: z.string().meta({ description: 'The RTC identity, or the chat user id.' }),
    roomId: z.string().nullable(),
    conversationId: z.string().nullable(),
  }),
);

/**
 * One record of `GET /v1/projects/{id}/events`: what happened in the project environment, as
 * metadata only. The stream serves the control plane, which never sees end-user content: message
 * text and reaction emoji are not in it (see `metadataOf` in live-events.ts).
 */
export const liveEventSchema = z.lazy(() =>
  z
    .discriminatedUnion('type', [
      liveEvent(
        z.literal('connection.opened'),
        z.object({ connection: liveConnection }),
        'A signaling participant joined a room, or a realtime (chat) client connected.',
      ),
      liveEvent(
        z.literal('connection.closed'),
        z.object({
          connection: liveConnection.unwrap().extend({
            closeCode: z.number().int().nullable(),
            closeReason: z.string().nullable(),
          }),
        }),
        'A connection of `connection.opened` ended.',
      ),
      liveEvent(
        z.literal('request.failed'),
        z.object({ error: errorRecordSchema.unwrap().omit({ environment: true, occurredAt: true }) }),
        'A runtime route answered 4xx or 5xx; `error.id` is the record in `GET /v1/projects/{id}/errors/{errorId}`.',
      ),
      liveEvent(
        z.literal('delivery.attempted'),
        z.object({
          delivery: z.object({
            id: z.string().meta({ example: 'whd_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
            webhookId: z.string(),
            eventId: z.string(),
            eventType: z.string(),
            attempt: z.number().int().meta({ description: '1 for the first attempt.' }),
            status: z.enum(DELIVERY_STATUSES).meta({ description: 'The delivery’s status after this attempt.' }),
            statusCode: z.number().int().nullable().meta({ description: 'Null when no answer arrived.' }),
            error: z.string().nullable().meta({ description: 'Why no answer arrived (timeout, refused …).' }),
            injectedFault: z
              .string()
              .nullable()
              .meta({ description: 'The injected fault that shaped the attempt (e.g. `webhook.failure`), if any.' }),
          }),
        }),
        'A webhook delivery attempt was made.',
      ),
      liveEvent(
        z.literal('environment.reset'),
        z.object({
          removed: environmentResetSchema.unwrap().shape.removed,
          snapshot: z.string().nullable().meta({
            description: 'The snapshot restored, whose data replaced what went; null for a reset.',
          }),
        }),
        'The environment was reset (`POST /v1/projects/{id}/environment/reset`) or a snapshot of it restored ' +
          '(`…/environment/snapshots/{name}/restore`): what it held is gone, its sockets closed; `removed` counts ' +
          'what went, `snapshot` names the snapshot restored in its place.',
      ),
      liveEvent(
        z.literal('environment.clock_changed'),
        z.object({
          offsetMs: z
            .int()
            .min(0)
            .meta({ description: 'How far ahead of real time the clock now runs; 0 after a reset.' }),
          advancedByMs: z.int().min(0).meta({ description: 'How far it was just advanced; 0 for a reset.' }),
        }),
        'The environment’s test clock was advanced or reset to real time (`/v1/projects/{id}/environment/clock`).',
      ),
      liveEvent(
        z.literal('environment.faults_changed'),
        z.object({
          change: z.enum(['added', 'removed']),
          faults: z.array(faultSchema).meta({ description: 'The faults added or removed.' }),
        }),
        'Faults were injected into the environment or removed (`/v1/projects/{id}/environment/faults`): list them ' +
          'again to show which are in force.',
      ),
      liveEvent(
        z.literal('environment.recording_changed'),
        z.object({ recording: recordingSchema }),
        'A recording of the environment started, or ended (`state` `stopped`; `endReason` says whether it was asked ' +
          'or a limit ended it), or was deleted (`/v1/projects/{id}/environment/recordings`).',
      ),
      liveEvent(
        z.literal('environment.sockets_dropped'),
        z.object({ percent: z.number().int(), kind: z.enum(SOCKET_KINDS) }),
        'A share of the environment’s sockets was dropped on purpose (code 4206, an injected fault).',
      ),
      liveEvent(
        z.enum(EVENT_TYPES),
        z.record(z.string(), z.unknown()).meta({
          description:
            'The catalogue event’s `data` (see the webhook events), metadata only: ids, names, roles, statuses ' +
            'and times; never message text or reaction emoji.',
        }),
        'An event of the webhook catalogue (`message.created`, `room.created` …).',
      ),
    ])
    .meta({ id: 'LiveEvent' }),
);
