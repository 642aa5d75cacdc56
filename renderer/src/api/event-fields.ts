import type { LiveEvent } from '../sdk';

/**
 * One field of an object in a live event's data: `eventField(event, 'liveStream', 'id')`, `eventField(event,
 * 'connection', 'roomId')`. Catalogue data is open (an emitter may add fields), so it is read with care rather
 * than cast.
 */
export function eventField(event: LiveEvent, object: string, field: string): unknown {
  const holder = (event.data as Record<string, unknown>)[object];
  return holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[field] : undefined;
}
