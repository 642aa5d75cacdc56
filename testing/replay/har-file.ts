import type { RecordedCredential } from '../../server/recordings/credential.js';

/** What a replay reads of a Switchboard recording's HAR 1.2 file (server/recordings/har.ts writes it). */
export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: HarHeader[]; postData?: { mimeType: string; text: string } };
  response: { status: number; content: { text?: string } };
  _switchboardKind?: string;
  _testClock?: string;
  _credential?: RecordedCredential;
  _connectionId?: string;
  _webSocketMessages?: { type: 'send' | 'receive'; time: number; opcode: number; data: string }[];
  _webSocketClose?: { code: number; reason: string };
  _webhook?: { webhookId: string; deliveryId: string; eventId: string; eventType: string };
  _error?: string;
}

export interface HarDocument {
  log: { version: string; creator: { name: string; version: string }; entries: HarEntry[]; comment?: string };
}

/** A parsed HAR document, checked enough to be replayed; an Error says what is wrong with it. */
export function readHar(text: string | unknown, source = 'the recording'): HarDocument {
  let document: unknown = text;
  if (typeof text === 'string') {
    try {
      document = JSON.parse(text);
    } catch (err) {
      throw new Error(`${source} is not JSON: ${(err as Error).message}`);
    }
  }
  const entries = (document as HarDocument | undefined)?.log?.entries;
  if (!Array.isArray(entries)) throw new Error(`${source} is not a HAR file: it has no log.entries`);
  for (const [i, entry] of entries.entries())
    if (typeof entry?.startedDateTime !== 'string' || typeof entry?.request?.url !== 'string')
      throw new Error(`${source}: log.entries[${i}] has no startedDateTime or request.url`);
  return document as HarDocument;
}

export const isSocketEntry = (entry: HarEntry) =>
  entry._switchboardKind === 'realtime' || entry._switchboardKind === 'signaling';
export const isWebhookEntry = (entry: HarEntry) => entry._switchboardKind === 'webhook';
/** A REST call of the recorded client: marked `rest`, or any other entry that is neither a socket nor a webhook. */
export const isRestEntry = (entry: HarEntry) =>
  entry._switchboardKind === 'rest' ||
  (entry._switchboardKind === undefined &&
    entry._webSocketMessages === undefined &&
    !entry.request.url.startsWith('ws'));
