import type { EnvironmentScope } from '../../db/scope.js';
import type { EventBus } from '../events/bus.js';

export interface ChatChangeOptions {
  realtimeData?: () => Record<string, unknown>;
  members?: readonly string[];
}

/**
 * Announces a chat change in the order spec 6.3 requires: to connected members (realtime) first, then
 * to the catalogue (webhooks). Connected clients may get a fuller shape (`realtimeData`, built only if
 * someone connected will hear it) than the catalogue's. A new conversation names its `members`, whose
 * connections hear from it from then on.
 */
export function emitChatChange(
  events: EventBus,
  { projectId, environment }: EnvironmentScope,
  conversationId: string,
  type: string,
  data: Record<string, unknown>,
  { realtimeData = () => data, members }: ChatChangeOptions = {},
): void {
  events.emit('chat', { projectId, environment, conversationId, type, data: realtimeData, members });
  events.emit('catalogue', { type, projectId, environment, data });
}
