import { paginate } from '../paginate.js';
import type { Transport } from '../transport.js';
import type { AuditEntry, AuditPage, AuditQuery } from '../types.js';

/** A project's audit log: every control-plane change, newest first. Read-only. */
export class AuditResource {
  constructor(private readonly transport: Transport) {}

  /** One page; pass its `nextCursor` as `cursor` for the next. */
  list(projectId: string, query: AuditQuery = {}): Promise<AuditPage> {
    return this.transport.call('listAuditLog', { params: { id: projectId }, query });
  }

  /** Every entry, newest first, fetching `limit` entries per request as the loop needs them. */
  all(projectId: string, query: Omit<AuditQuery, 'cursor'> = {}): AsyncGenerator<AuditEntry, void, undefined> {
    return paginate((cursor) => this.list(projectId, { ...query, cursor }));
  }
}
