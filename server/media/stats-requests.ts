/**
 * The server's `stats` requests to the media process holding a room (protocol.ts), each answered by the reply of its
 * id. The media process answers at once from its counters. A room no process holds here, or one whose process is
 * starting (again), has no media here yet: nothing to ask. A request to a process that died is never answered: it
 * fails after STATS_TIMEOUT_MS.
 */
import { ServiceError } from '../errors.js';
import type { MediaReply, MediaRequest, ParticipantMediaStats } from './protocol.js';

export const STATS_TIMEOUT_MS = 2000;

interface Pending {
  resolve(participants: ParticipantMediaStats[]): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export function createStatsRequests(media: { send(request: MediaRequest): void; ready(room: string): boolean }) {
  const pending = new Map<number, Pending>();
  let nextId = 0;
  return {
    /** The room's participants with their tracks' counters, as the media process sees them now. */
    room(roomId: string): Promise<ParticipantMediaStats[]> {
      if (!media.ready(roomId)) return Promise.resolve([]);
      const id = nextId;
      nextId = (nextId + 1) % Number.MAX_SAFE_INTEGER;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new ServiceError('SERVICE_UNAVAILABLE', 'The media server did not answer in time; retry.'));
        }, STATS_TIMEOUT_MS);
        pending.set(id, { resolve, reject, timer });
        media.send({ type: 'stats', id, room: roomId });
      });
    },
    answer(reply: Extract<MediaReply, { type: 'stats' }>): void {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      clearTimeout(waiting.timer);
      waiting.resolve(reply.participants);
    },
    /** The media process is stopping: nothing will answer. */
    close(): void {
      for (const waiting of pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(new ServiceError('SERVICE_UNAVAILABLE', 'The media server is stopping.'));
      }
      pending.clear();
    },
  };
}
