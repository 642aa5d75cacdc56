import type { Transport } from '../transport.js';
import type {
  AdvanceClockInput,
  Environment,
  EnvironmentClock,
  EnvironmentReset,
  Trigger,
  TriggeredEvent,
  WebhookEventType,
} from '../types.js';

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

  /**
   * The environment's clock: `now` is real time plus `offsetMs`, the amount its test clock was advanced by (0 and
   * `advancedAt: null` on real time; always so for production). Any member who can read the project.
   */
  clock(projectId: string, options: { environment: Environment }): Promise<EnvironmentClock> {
    return this.transport.call('getEnvironmentClock', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }

  /**
   * Moves a development or staging environment's test clock forward by `seconds`: webhook retries that came due go
   * out at once (in order, the whole schedule if the advance covers it), tokens past their expiry are refused, typing
   * indicators lapse, metric windows move on. Answers the clock. Production is refused (403
   * `SERVICE_PRODUCTION_ENVIRONMENT`). OWNER and ADMIN only (`project:write`).
   */
  advanceClock(
    projectId: string,
    options: { environment: Environment; seconds: AdvanceClockInput['seconds'] },
  ): Promise<EnvironmentClock> {
    return this.transport.call('advanceEnvironmentClock', {
      params: { id: projectId },
      query: { environment: options.environment },
      body: { seconds: options.seconds },
    });
  }

  /**
   * Puts the environment back on real time; what was stamped in its future stays so. Production is refused (403
   * `SERVICE_PRODUCTION_ENVIRONMENT`). OWNER and ADMIN only (`project:write`).
   */
  resetClock(projectId: string, options: { environment: Environment }): Promise<EnvironmentClock> {
    return this.transport.call('resetEnvironmentClock', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }

  /**
   * Makes an event of the catalogue happen in the environment, like `stripe trigger`: creates the objects it needs
   * (a conversation of `trigger-alice` and `trigger-bob` for a message, a room for a participant, a live stream…)
   * and acts through the server's own services, so the event (and those of the objects made on the way, listed in
   * `events`) reaches webhooks and realtime sockets as any does. Answers the ids of what it made (`objects`).
   * Production is refused (403 `SERVICE_PRODUCTION_ENVIRONMENT`). OWNER, ADMIN and DEVELOPER (`rooms:write`).
   */
  trigger(projectId: string, options: { environment: Environment; event: WebhookEventType }): Promise<TriggeredEvent> {
    return this.transport.call('triggerEvent', {
      params: { id: projectId },
      query: { environment: options.environment },
      body: { event: options.event },
    });
  }

  /** Every event that can be triggered (the whole catalogue), with what its trigger does and the events it emits. */
  async triggers(projectId: string): Promise<Trigger[]> {
    return (await this.transport.call('listTriggers', { params: { id: projectId } })).data;
  }
}
