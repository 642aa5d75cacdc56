import type * as z from 'zod';
import { toIso, toIsoOrNull } from '../clock.js';
import type { DeploymentMode } from '../context.js';
import type { Environment } from '../environments.js';
import type { connectionSchema, diagnosticsSchema, errorRecordSchema, metricsSchema, usageSchema } from './schemas.js';
import type { ConnectionRow, createObservabilityService, ErrorRow } from './service.js';

export const presentConnection = (row: ConnectionRow): z.input<typeof connectionSchema> => ({
  id: row.id,
  kind: row.kind,
  environment: row.environment,
  identity: row.identity,
  roomId: row.roomId,
  conversationId: row.conversationId,
  connectedAt: toIso(row.connectedAt),
  disconnectedAt: toIsoOrNull(row.disconnectedAt),
  closeCode: row.closeCode,
  closeReason: row.closeReason,
  nodeId: row.nodeId,
  media:
    row.mediaBytesIn === null
      ? null
      : {
          bytesIn: row.mediaBytesIn,
          bytesOut: row.mediaBytesOut ?? 0,
          packetsLostIn: row.mediaPacketsLostIn ?? 0,
          packetsLostOut: row.mediaPacketsLostOut ?? 0,
        },
});

export const presentErrorRecord = (row: ErrorRow): z.input<typeof errorRecordSchema> => ({
  id: row.id,
  requestId: row.requestId,
  status: row.status,
  code: row.code,
  message: row.message,
  method: row.method,
  route: row.route,
  credential: row.credential as 'key' | 'chat' | 'rtc',
  environment: row.environment,
  occurredAt: toIso(row.occurredAt),
});

export const presentSeries = (points: { at: number; value: number }[]) =>
  points.map((p) => ({ at: toIso(p.at), value: p.value }));

type Reads = ReturnType<typeof createObservabilityService>;

export const presentMetrics = (
  environment: Environment,
  window: string,
  s: Awaited<ReturnType<Reads['metrics']>>,
): z.input<typeof metricsSchema> => ({
  environment,
  window,
  resolution: '1m',
  series: {
    requests: presentSeries(s.requests),
    errors: presentSeries(s.errors),
    messages: presentSeries(s.messages),
    connections: presentSeries(s.connections),
    webhookDeliveries: { succeeded: presentSeries(s.webhookSucceeded), failed: presentSeries(s.webhookFailed) },
    telemetryEvents: presentSeries(s.telemetryEvents),
  },
});

/** The deployment's facts (version, mode) beside the environment's own figures. */
export const presentDiagnostics = (
  deployment: { version: string; mode: DeploymentMode },
  environment: Environment,
  d: Awaited<ReturnType<Reads['diagnostics']>>,
): z.input<typeof diagnosticsSchema> => ({
  version: deployment.version,
  uptimeSeconds: d.uptimeSeconds,
  mode: deployment.mode,
  environment,
  database: { bytes: d.databaseBytes },
  webhookQueue: {
    pending: d.webhookPending,
    oldestPendingAt: toIsoOrNull(d.oldestPendingAt),
    endpoints: d.webhookEndpoints,
  },
  connections: d.openConnections,
  recentErrorRate: d.recentErrorRate,
  media: d.media,
});

export const presentUsage = (
  environment: Environment,
  u: Awaited<ReturnType<Reads['usage']>>,
): z.input<typeof usageSchema> => ({
  environment,
  period: { month: u.period.month, from: toIso(u.period.from), to: toIso(u.period.to) },
  messages: u.messages,
  connectionMinutes: u.connectionMinutes,
  webhookDeliveries: u.webhookDeliveries,
  storageBytes: u.storageBytes,
});
