import { defineRoute } from '../http/route.js';
import { pageOf } from '../shared/schemas.js';
import { presentAuditEntry } from './presenter.js';
import { auditEntrySchema, auditQuery } from './schemas.js';

export const auditRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/projects/{id}/audit-logs',
    operationId: 'listAuditLog',
    summary: 'Read the audit log',
    description:
      'Every control-plane change, newest first: who, what, when, and the environment where relevant. Read-only: no ' +
      'route changes or deletes an entry.',
    tag: 'Audit log',
    auth: 'project',
    capability: 'audit:read',
    query: auditQuery,
    response: pageOf(auditEntrySchema),
    handler: async ({ app, params, query }) => {
      const page = await app.services.audit.list(params.id, query);
      return { data: page.rows.map(presentAuditEntry), nextCursor: page.nextCursor };
    },
  }),
];
