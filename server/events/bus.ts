import { EventEmitter } from 'node:events';

/**
 * What happens inside the server, for the parts that react to it (caches now; realtime fan-out and
 * webhook delivery as they land). Listeners run synchronously, after the change has committed.
 */
export interface InternalEvents {
  'project.deleted': { projectId: string };
  'api_key.revoked': { projectId: string; keyId: string };
}

export type InternalEventName = keyof InternalEvents;

export interface EventBus {
  emit<E extends InternalEventName>(event: E, payload: InternalEvents[E]): void;
  on<E extends InternalEventName>(event: E, listener: (payload: InternalEvents[E]) => void): () => void;
}

export function createEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  return {
    emit(event, payload) {
      emitter.emit(event, payload);
    },
    on(event, listener) {
      emitter.on(event, listener);
      return () => emitter.off(event, listener);
    },
  };
}
