import type { RecordedCredential } from '../../server/recordings/credential.js';
import { type HarDocument, type HarEntry, isRestEntry, isSocketEntry, isWebhookEntry } from './har-file.js';

/** A recorded socket the replay opens again: where, with whose credential, and what it received then. */
export interface SocketPlan {
  /** Its entry's index in the file. */
  entryIndex: number;
  kind: 'realtime' | 'signaling';
  /** The recorded URL (its `access_token` a placeholder). */
  url: string;
  credential?: RecordedCredential;
  received: { at: number; data: string }[];
}

/** One thing the replay does, at its recorded time (ms since the epoch, wall clock of the recording). */
export type Step =
  | { kind: 'rest'; at: number; entryIndex: number; entry: HarEntry }
  | { kind: 'advance'; at: number; seconds: number }
  | { kind: 'open'; at: number; socket: SocketPlan }
  | { kind: 'send'; at: number; socket: SocketPlan; data: string }
  | { kind: 'close'; at: number; socket: SocketPlan };

export interface ReplayPlan {
  steps: Step[];
  sockets: SocketPlan[];
  /** The recorded webhook attempts, with their entries' indexes and times: compared, not replayed. */
  webhooks: { entryIndex: number; at: number; entry: HarEntry }[];
  /** The first entry's time. */
  startedAt: number;
}

/** Test-clock advances smaller than this are noise of when an entry's offset was read, not an advance. */
const CLOCK_NOISE_MS = 1000;

/**
 * The recording's client side as one timeline, in recorded order: REST calls, sockets opened, frames the client
 * sent, sockets closed, and the test-clock advances the entries' `_testClock` times show (each before the first
 * entry that saw it). Webhook attempts are what the server did, so they are only listed, for the comparison.
 */
export function planReplay(har: HarDocument): ReplayPlan {
  const steps: Step[] = [];
  const sockets: SocketPlan[] = [];
  const webhooks: ReplayPlan['webhooks'] = [];
  let offset = 0;
  const entries = har.log.entries;
  const startedAt = entries.length ? Math.min(...entries.map((e) => Date.parse(e.startedDateTime))) : 0;
  entries.forEach((entry, entryIndex) => {
    const at = Date.parse(entry.startedDateTime);
    if (entry._testClock) {
      const seen = Date.parse(entry._testClock) - at;
      if (seen - offset >= CLOCK_NOISE_MS) {
        steps.push({ kind: 'advance', at, seconds: Math.round((seen - offset) / 1000) });
        offset += Math.round((seen - offset) / 1000) * 1000;
      }
    }
    if (isWebhookEntry(entry)) webhooks.push({ entryIndex, at, entry });
    else if (isSocketEntry(entry)) {
      const messages = entry._webSocketMessages ?? [];
      const socket: SocketPlan = {
        entryIndex,
        kind: entry._switchboardKind as SocketPlan['kind'],
        url: entry.request.url,
        credential: entry._credential,
        received: messages
          .filter((m) => m.type === 'receive')
          .map((m) => ({ at: Math.round(m.time * 1000), data: m.data })),
      };
      sockets.push(socket);
      steps.push({ kind: 'open', at, socket });
      for (const m of messages)
        if (m.type === 'send') steps.push({ kind: 'send', at: Math.round(m.time * 1000), socket, data: m.data });
      const lastFrame = messages.length ? Math.round((messages.at(-1)?.time ?? 0) * 1000) : at;
      steps.push({ kind: 'close', at: Math.max(lastFrame, at + Math.round(entry.time || 0)), socket });
    } else if (isRestEntry(entry)) steps.push({ kind: 'rest', at, entryIndex, entry });
  });
  // Stable: what shares a millisecond stays in the file's order.
  steps.sort((a, b) => a.at - b.at);
  return { steps, sockets, webhooks, startedAt };
}
