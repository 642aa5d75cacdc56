import { NETWORK_ERROR, SwitchboardError, UNEXPECTED_RESPONSE } from '../errors.js';
import { paginate } from '../paginate.js';
import { readServerSentEvents } from '../server-sent-events.js';
import { describeCause, type Transport } from '../transport.js';
import type {
  Connection,
  ConnectionPage,
  ConnectionsQuery,
  Diagnostics,
  EnvironmentInput,
  ErrorRecord,
  ErrorRecordPage,
  ErrorsQuery,
  LiveEvent,
  Metrics,
  MetricsQuery,
  Usage,
  UsageQuery,
} from '../types.js';

export interface LiveEventsOptions extends EnvironmentInput {
  /** Aborting it closes the stream (the loop over it then ends without an error). */
  signal?: AbortSignal;
}

/**
 * An open live event stream: iterate it (once) with `for await`. The loop ends when the server ends
 * the stream (it is shutting down, the project was deleted, the session lost access) or after
 * `close()` or an abort; a connection that drops throws a `SwitchboardError` with code
 * `CLIENT_NETWORK_ERROR`. Nothing is replayed: to go on after either, open a new stream.
 */
export class LiveEventStream implements AsyncIterable<LiveEvent> {
  constructor(
    private readonly body: ReadableStream<Uint8Array>,
    private readonly controller: AbortController,
    /** Run once the stream is over (stops listening to the caller's signal). */
    private readonly onEnd: () => void,
  ) {}

  close(): void {
    this.controller.abort();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<LiveEvent, void, undefined> {
    try {
      for await (const record of readServerSentEvents(this.body)) {
        let event: LiveEvent;
        try {
          event = JSON.parse(record.data) as LiveEvent;
        } catch {
          throw new SwitchboardError(
            0,
            UNEXPECTED_RESPONSE,
            `The event stream sent a record that is not JSON: ${record.data.slice(0, 200)}`,
            null,
          );
        }
        yield event;
      }
    } catch (err) {
      if (this.controller.signal.aborted) return;
      if (err instanceof SwitchboardError) throw err;
      throw new SwitchboardError(0, NETWORK_ERROR, `The event stream was interrupted: ${describeCause(err)}`, null, {
        cause: err,
      });
    } finally {
      this.controller.abort();
      this.onEnd();
    }
  }
}

/**
 * What runs in one environment of a project (development unless told otherwise): the connection and
 * error logs, per-minute metrics, diagnostics, monthly usage, and the live event stream.
 */
export class ObservabilityResource {
  constructor(private readonly transport: Transport) {}

  /** One page of signaling and realtime connections, newest first. */
  connections(projectId: string, query: ConnectionsQuery = {}): Promise<ConnectionPage> {
    return this.transport.call('listConnections', { params: { id: projectId }, query });
  }

  allConnections(
    projectId: string,
    query: Omit<ConnectionsQuery, 'cursor'> = {},
  ): AsyncGenerator<Connection, void, undefined> {
    return paginate((cursor) => this.connections(projectId, { ...query, cursor }));
  }

  connection(projectId: string, connectionId: string, options: EnvironmentInput = {}): Promise<Connection> {
    return this.transport.call('getConnection', {
      params: { id: projectId, connectionId },
      query: { environment: options.environment },
    });
  }

  /** One page of the error answers of runtime routes, newest first. */
  errors(projectId: string, query: ErrorsQuery = {}): Promise<ErrorRecordPage> {
    return this.transport.call('listErrors', { params: { id: projectId }, query });
  }

  allErrors(projectId: string, query: Omit<ErrorsQuery, 'cursor'> = {}): AsyncGenerator<ErrorRecord, void, undefined> {
    return paginate((cursor) => this.errors(projectId, { ...query, cursor }));
  }

  error(projectId: string, errorId: string, options: EnvironmentInput = {}): Promise<ErrorRecord> {
    return this.transport.call('getError', {
      params: { id: projectId, errorId },
      query: { environment: options.environment },
    });
  }

  /** Per-minute series over `window` (default `1h`, at most `24h`). */
  metrics(projectId: string, query: MetricsQuery = {}): Promise<Metrics> {
    return this.transport.call('getMetrics', { params: { id: projectId }, query });
  }

  diagnostics(projectId: string, options: EnvironmentInput = {}): Promise<Diagnostics> {
    return this.transport.call('getDiagnostics', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }

  /** Usage of one calendar month (UTC; `month: 'YYYY-MM'`, default the current one). */
  usage(projectId: string, query: UsageQuery = {}): Promise<Usage> {
    return this.transport.call('getUsage', { params: { id: projectId }, query });
  }

  /**
   * Opens the live event stream of one environment: resolves once the server has accepted it (a
   * 404 or 403 rejects here), so that everything that happens from then on is in it. Works with
   * `fetch` streams in browsers and Node.
   *
   * ```ts
   * const stream = await client.observability.events(projectId, { environment: 'production' });
   * for await (const event of stream) console.log(event.at, event.type, event.data);
   * ```
   */
  async events(projectId: string, options: LiveEventsOptions = {}): Promise<LiveEventStream> {
    const controller = new AbortController();
    const { signal } = options;
    const abort = () => controller.abort();
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    const onEnd = () => signal?.removeEventListener('abort', abort);
    try {
      const body = await this.transport.openEventStream(
        'streamEvents',
        { params: { id: projectId }, query: { environment: options.environment } },
        controller.signal,
      );
      return new LiveEventStream(body, controller, onEnd);
    } catch (err) {
      onEnd();
      throw err;
    }
  }
}
