import type { Transport } from '../transport.js';
import type {
  DroppedSockets,
  DropSocketsInput,
  Environment,
  Fault,
  FaultInput,
  FaultList,
  RemovedFaults,
} from '../types.js';

/**
 * Faults injected into an environment's traffic, for testing how an app copes: duplicate, late, out-of-order or
 * failing webhook deliveries, REST calls answered 503 or slowed down, sockets dropped. Each fault applies to a share
 * of the traffic until it expires (default 10 minutes) or is removed. The environment is always named; production is
 * refused (403 `SERVICE_PRODUCTION_ENVIRONMENT`). Changes take `project:write` (OWNER and ADMIN) and are audited.
 */
export class FaultsResource {
  constructor(private readonly transport: Transport) {}

  /** The faults in force in the environment, newest first. */
  list(projectId: string, options: { environment: Environment }): Promise<FaultList> {
    return this.transport.call('listEnvironmentFaults', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }

  /**
   * Injects a fault: `kind`, `percent` (1–100, default 100), `delayMs` (required for `webhook.delay` and
   * `api.latency`, default 3000 for `webhook.out_of_order`), `expiresInSeconds` (default 600, at most 86400).
   */
  add(projectId: string, input: FaultInput & { environment: Environment }): Promise<Fault> {
    const { environment, ...body } = input;
    return this.transport.call('createEnvironmentFault', {
      params: { id: projectId },
      query: { environment },
      body,
    });
  }

  /** Ends one fault now. */
  remove(projectId: string, faultId: string, options: { environment: Environment }): Promise<void> {
    return this.transport.call('removeEnvironmentFault', {
      params: { id: projectId, faultId },
      query: { environment: options.environment },
    });
  }

  /** Ends every fault of the environment; answers how many were in force. */
  clear(projectId: string, options: { environment: Environment }): Promise<RemovedFaults> {
    return this.transport.call('clearEnvironmentFaults', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }

  /**
   * Closes a share (`percent`, default 100) of the environment's realtime and/or signaling sockets (`kind`, default
   * `all`) now, with code 4206: clients reconnect and catch up, as the ChatClient does. `closed` counts the sockets of
   * the server that answered; with several nodes, each closes its own share too.
   */
  dropSockets(projectId: string, input: DropSocketsInput & { environment: Environment }): Promise<DroppedSockets> {
    const { environment, ...body } = input;
    return this.transport.call('dropEnvironmentSockets', {
      params: { id: projectId },
      query: { environment },
      body,
    });
  }
}
