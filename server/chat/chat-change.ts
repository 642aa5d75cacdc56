import type { EnvironmentScope } from '../../db/scope.js';
import type { EventBus } from '../events/bus.js';

/**
 * Announces a chat change in the order spec 6.3 requires: to connected members (realtime) first, then
 * to the catalogue (webhooks). Connected clients may get a fuller shape (`realtimeData`, built only if
 * someone connected will hear it) than the catalogue's.
 */
export function emitChatChange(
  events: EventBus,
  { projectId, environment }: EnvironmentScope,
  conversationId: string,
  type: string,
  data: Record<string, unknown>,
  realtimeData: () => Record<string, unknown> = () => data,
): void {
  events.emit('chat', { projectId, environment, conversationId, type, data: realtimeData });
  events.emit('catalogue', { type, projectId, environment, data });
}
