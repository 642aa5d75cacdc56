import { and, desc, eq, lt } from 'drizzle-orm';
import { auditLog } from '../../db/schema/audit-log.js';
import type { Environment } from '../../db/schema/environment.js';
import type { Queries } from '../../db/store.js';
import type { Infrastructure } from '../context.js';
import { decodeCursor, toPage } from '../shared/pagination.js';
import type { Actor } from './actor.js';

export interface AuditEvent {
  projectId: string;
  actor: Actor;
  /** `<resource>.<verb>`, e.g. `member.role_changed`. */
  action: string;
  target: { type: string; id: string };
  environment?: Environment | null;
  details?: Record<string, unknown>;
}

export type AuditRow = typeof auditLog.$inferSelect;

export function createAuditService({ store, ids, clock }: Infrastructure) {
  const { db } = store;
  return {
    /** Call inside the transaction of the change it records, so both land or neither does. */
    async record(tx: Queries, event: AuditEvent): Promise<void> {
      await tx.insert(auditLog).values({
        id: ids.next('aud'),
        projectId: event.projectId,
        actorType: event.actor.type,
        actorId: event.actor.id,
        actorEmail: event.actor.type === 'user' ? event.actor.email : null,
        action: event.action,
        targetType: event.target.type,
        targetId: event.target.id,
        environment: event.environment ?? null,
        details: event.details ?? {},
        createdAt: clock.now(),
      });
    },

    /** Newest first. */
    async list(
      projectId: string,
      query: { limit: number; cursor?: string; action?: string; environment?: Environment },
    ) {
      const before = decodeCursor(query.cursor);
      const rows = await db
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.projectId, projectId),
            before ? lt(auditLog.id, before) : undefined,
            query.action ? eq(auditLog.action, query.action) : undefined,
            query.environment ? eq(auditLog.environment, query.environment) : undefined,
          ),
        )
        .orderBy(desc(auditLog.id))
        .limit(query.limit + 1);
      return toPage(rows, query.limit);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
