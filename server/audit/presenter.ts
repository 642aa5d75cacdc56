import type * as z from 'zod';
import { toIso } from '../clock.js';
import type { auditEntrySchema } from './schemas.js';
import type { AuditRow } from './service.js';

export const presentAuditEntry = (row: AuditRow): z.input<typeof auditEntrySchema> => ({
  id: row.id,
  projectId: row.projectId,
  actor: { type: row.actorType, id: row.actorId, email: row.actorEmail },
  action: row.action,
  target: { type: row.targetType, id: row.targetId },
  environment: row.environment,
  details: row.details,
  createdAt: toIso(row.createdAt),
});
