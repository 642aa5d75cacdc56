import type { HarFile } from '../../sdk';

/**
 * The parts of a HAR 1.2 entry the timeline reads (the HAR format, with Switchboard's `_` members as
 * docs/testing-your-app.md describes them); the SDK types an entry as an open record.
 */
export interface HarHeader {
  name: string;
  value: string;
}
interface HarMessage {
  type: 'send' | 'receive';
  /** Seconds since the epoch, as Chrome DevTools writes them. */
  time: number;
  data: string;
}
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: HarHeader[]; postData?: { text: string } };
  response: { status: number; headers: HarHeader[]; content: { text: string } };
  _switchboardKind: string;
  _testClock: string;
  _connectionId?: string;
  _webSocketMessages?: HarMessage[];
  _webSocketClose?: { code: number; reason: string };
  _webhook?: { webhookId: string; deliveryId: string; eventId: string; eventType: string };
  _error?: string;
}

export type TimelineKind = 'rest' | 'webhook' | 'opened' | 'frame' | 'closed';

/** One row of the timeline: a REST call, a webhook attempt, or one moment of a socket (opened, a frame, closed). */
export interface TimelineItem {
  key: string;
  kind: TimelineKind;
  /** Wall time, milliseconds since the epoch. */
  at: number;
  /** The environment's test-clock time then, milliseconds since the epoch. */
  testClockAt: number;
  /** What it is: `POST /v1/rooms`, `room.created`, a frame's message type. */
  label: string;
  /** The answer's status, `sent`/`received` for a frame, the close code. */
  outcome: string;
  /** Whether the outcome is a failure (an HTTP status of 400 or more, no answer at all). */
  failed: boolean;
  /** The socket it belongs to, for sockets and their frames. */
  connection?: Connection;
  entry: HarEntry;
  frame?: HarMessage;
}

export interface Connection {
  id: string;
  /** `realtime` or `signaling`. */
  socket: string;
  frames: number;
}

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

/** A frame's message types: a realtime frame may hold several messages, one a line. */
export function frameLabel(data: string): string {
  const types = data.split('\n').map((line) => {
    try {
      const message = JSON.parse(line) as { type?: unknown };
      return typeof message.type === 'string' ? message.type : 'message';
    } catch {
      return 'text';
    }
  });
  return types.length > 1 ? `${types[0]} +${types.length - 1} more` : (types[0] ?? 'text');
}

/**
 * Every REST call, webhook attempt and socket moment of a recording on one time axis, oldest first. A frame's
 * test-clock time is its socket's: the time at which it opened on the test clock plus the wall time since.
 */
export function timelineOf(har: HarFile): { items: TimelineItem[]; connections: Connection[] } {
  const items: TimelineItem[] = [];
  const connections: Connection[] = [];
  for (const [index, raw] of har.log.entries.entries()) {
    const entry = raw as unknown as HarEntry;
    const at = Date.parse(entry.startedDateTime);
    const testClockAt = Date.parse(entry._testClock);
    const key = `${index}`;
    if (entry._switchboardKind === 'rest') {
      const status = entry.response.status;
      items.push({
        key,
        kind: 'rest',
        at,
        testClockAt,
        label: `${entry.request.method} ${pathOf(entry.request.url)}`,
        outcome: String(status),
        failed: status >= 400,
        entry,
      });
    } else if (entry._switchboardKind === 'webhook') {
      const status = entry.response.status;
      items.push({
        key,
        kind: 'webhook',
        at,
        testClockAt,
        label: entry._webhook?.eventType ?? `POST ${entry.request.url}`,
        outcome: status ? String(status) : 'No answer',
        failed: !status || status >= 400,
        entry,
      });
    } else if (entry._connectionId) {
      const messages = entry._webSocketMessages ?? [];
      const connection = { id: entry._connectionId, socket: entry._switchboardKind, frames: messages.length };
      connections.push(connection);
      const offset = testClockAt - at;
      items.push({
        key,
        kind: 'opened',
        at,
        testClockAt,
        label: `${connection.socket} socket opened`,
        outcome: '101',
        failed: false,
        connection,
        entry,
      });
      for (const [n, frame] of messages.entries()) {
        const frameAt = Math.round(frame.time * 1000);
        items.push({
          key: `${key}.${n}`,
          kind: 'frame',
          at: frameAt,
          testClockAt: frameAt + offset,
          label: frameLabel(frame.data),
          outcome: frame.type === 'send' ? 'sent by client' : 'received by client',
          failed: false,
          connection,
          entry,
          frame,
        });
      }
      if (entry._webSocketClose) {
        const closedAt = at + entry.time;
        items.push({
          key: `${key}.closed`,
          kind: 'closed',
          at: closedAt,
          testClockAt: closedAt + offset,
          label: `${connection.socket} socket closed`,
          outcome: `code ${entry._webSocketClose.code}`,
          failed: false,
          connection,
          entry,
        });
      }
    }
  }
  // Stable: moments of one socket, or entries taken in the same millisecond, keep the order they were taken in.
  items.sort((a, b) => a.at - b.at);
  return { items, connections };
}
