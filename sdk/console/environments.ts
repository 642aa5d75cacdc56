import type { Transport } from '../transport.js';
import type { Environment, EnvironmentReset } from '../types.js';

/** A project's environments as a whole: the tools for testing an app against development or staging. */
export class EnvironmentsResource {
  constructor(private readonly transport: Transport) {}

  /**
   * Empties the environment of its runtime data (rooms, chat, attachments, live streams, connections, webhook
   * deliveries, telemetry, metrics, errors) and closes its sockets (code 4205); keeps keys, webhook endpoints,
   * members and the audit log. Answers how many of each were removed. The environment is named, never defaulted;
   * production is refused (403 `SERVICE_PRODUCTION_ENVIRONMENT`). OWNER and ADMIN only (`project:write`).
   */
  reset(projectId: string, options: { environment: Environment }): Promise<EnvironmentReset> {
    return this.transport.call('resetEnvironment', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }
}
