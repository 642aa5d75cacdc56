import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { EventBus, InternalEventName, InternalEvents } from '../events/bus.js';
import { SPAN_KIND, type Tracing } from '../tracing/tracing.js';

/** The one channel every node publishes its events on, and listens to. */
export const EVENTS_CHANNEL = 'switchboard:events';

interface RelayedEvent {
  node: string;
  event: InternalEventName;
  payload: unknown;
  /** The W3C `traceparent` of the span that published it, when the emitting node traces: the receiver's joins it. */
  trace?: string;
}

/** What a hop's spans are named and marked with (OpenTelemetry's messaging conventions). */
const hopAttributes = (event: InternalEventName, operation: 'publish' | 'process') => ({
  'messaging.system': 'redis',
  'messaging.destination.name': EVENTS_CHANNEL,
  'messaging.operation.type': operation,
  'switchboard.event': event,
});

/** `chat` carries its realtime data as a function, built on demand: it crosses as the data it builds. */
function encode(event: InternalEventName, payload: unknown): unknown {
  if (event !== 'chat') return payload;
  const chat = payload as InternalEvents['chat'];
  return { ...chat, data: chat.data() };
}

function decode(event: InternalEventName, payload: unknown): never {
  if (event !== 'chat') return payload as never;
  const data = (payload as { data: Record<string, unknown> }).data;
  return { ...(payload as object), data: () => data } as never;
}

/**
 * Carries every event of this node's bus to the other nodes, and theirs to this one's `on` listeners, over Redis
 * pub/sub: one channel, so the events of one node reach every other in the order that node emitted them. Each node
 * hears its own events at once, from its bus; the copy that comes back from Redis is dropped. While Redis is away,
 * events are not relayed (nor queued: the realtime side closes its sockets, whose clients catch up with their cursors
 * once back, see cluster.ts).
 */
export async function relayEvents(
  bus: EventBus,
  {
    publisher,
    subscriber,
    nodeId,
    logger,
    tracing,
  }: { publisher: Redis; subscriber: Redis; nodeId: string; logger: Logger; tracing: Tracing },
): Promise<{ stop(): void }> {
  subscriber.on('message', (_channel: string, text: string) => {
    let relayed: RelayedEvent;
    try {
      relayed = JSON.parse(text) as RelayedEvent;
    } catch {
      logger.warn('an unreadable event on the cluster bus was dropped');
      return;
    }
    if (relayed.node === nodeId) return;
    try {
      const receive = () => bus.receive(relayed.event, decode(relayed.event, relayed.payload));
      // A span only for the events of a trace: the others (presence, heartbeats of state) would each start a new one.
      if (relayed.trace && tracing.enabled)
        tracing.inSpanFrom(
          relayed.trace,
          `process ${EVENTS_CHANNEL}`,
          { kind: SPAN_KIND.consumer, attributes: hopAttributes(relayed.event, 'process') },
          receive,
        );
      else receive();
    } catch (err) {
      logger.error({ err, event: relayed.event, node: relayed.node }, 'a listener failed on an event of another node');
    }
  });
  await subscriber.subscribe(EVENTS_CHANNEL);
  bus.relayTo((event, payload) => {
    if (publisher.status !== 'ready') return;
    const publish = () => {
      const relayed: RelayedEvent = { node: nodeId, event, payload: encode(event, payload) };
      const trace = tracing.traceparent();
      if (trace) relayed.trace = trace;
      return publisher.publish(EVENTS_CHANNEL, JSON.stringify(relayed));
    };
    tracing
      .inChildSpan(
        `publish ${EVENTS_CHANNEL}`,
        { kind: SPAN_KIND.producer, attributes: hopAttributes(event, 'publish') },
        publish,
      )
      .catch((err: unknown) => {
        logger.warn({ err, event }, 'an event could not be relayed to the other nodes');
      });
  });
  return {
    stop() {
      bus.relayTo(undefined);
    },
  };
}
