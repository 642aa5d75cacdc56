import type { Transport } from '../transport.js';
import type {
  Environment,
  EnvironmentSnapshot,
  EnvironmentSnapshotList,
  EnvironmentSnapshotRestore,
  SaveSnapshotInput,
} from '../types.js';

/**
 * Named snapshots of an environment, for tests that start from a known state: one holds exactly what an environment
 * reset removes (rooms, chat, attachments with their bytes, live streams, connection records, webhook deliveries,
 * telemetry, metrics, errors), and restoring it puts that back as it was, ids and times included, after removing what
 * the environment held then (its sockets close with 4205, as in a reset). The environment is always named;
 * production is refused (403 `SERVICE_PRODUCTION_ENVIRONMENT`). Changes take `project:write` (OWNER and ADMIN) and
 * are audited.
 */
export class SnapshotsResource {
  constructor(private readonly transport: Transport) {}

  /** The environment's snapshots, by name, each with what it holds (`counts`) and its size. */
  list(projectId: string, options: { environment: Environment }): Promise<EnvironmentSnapshotList> {
    return this.transport.call('listEnvironmentSnapshots', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }

  /** Saves what the environment holds now as `name`; an existing name is refused (409) unless `replace: true`. */
  save(projectId: string, input: SaveSnapshotInput & { environment: Environment }): Promise<EnvironmentSnapshot> {
    const { environment, ...body } = input;
    return this.transport.call('saveEnvironmentSnapshot', {
      params: { id: projectId },
      query: { environment },
      body,
    });
  }

  /** Replaces the environment's runtime data with the snapshot's; answers what went and what came back. */
  restore(projectId: string, name: string, options: { environment: Environment }): Promise<EnvironmentSnapshotRestore> {
    return this.transport.call('restoreEnvironmentSnapshot', {
      params: { id: projectId, name },
      query: { environment: options.environment },
    });
  }

  /** Deletes the snapshot; the environment is left as it is. */
  delete(projectId: string, name: string, options: { environment: Environment }): Promise<void> {
    return this.transport.call('deleteEnvironmentSnapshot', {
      params: { id: projectId, name },
      query: { environment: options.environment },
    });
  }
}
