import type { z } from 'zod';
import { toIso, toIsoOrNull } from '../clock.js';
import type { connectionSchema, errorRecordSchema } from './schemas.js';
import type { ConnectionRow, ErrorRow } from './service.js';

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
