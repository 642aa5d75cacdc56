import { eventField } from '../../api/event-fields';
import { describeOffset } from '../../components/durations';
import { faultSummary } from '../../components/fault-kinds';
import { type Environment, type LiveEvent, resetCounts } from '../../sdk';

/** A page of the dashboard that an event names, by its address (some belong to other parts of the dashboard). */
export interface EventLink {
  label: string;
  href: string;
}

type Data = Record<string, unknown>;

/** A text field of an object in the event's data, or undefined. */
function textField(event: LiveEvent, object: string, field: string): string | undefined {
  const value = eventField(event, object, field);
  return typeof value === 'string' ? value : undefined;
}

/**
 * The words of a tail row: the ids and names an event carries (metadata only; the stream has no message text).
 * `endpointUrl`: for a delivery, the URL of the endpoint it went to, when known (the event carries its id only).
 */
export function summaryOf(event: LiveEvent, endpointUrl?: string): string {
  switch (event.type) {
    case 'connection.opened':
    case 'connection.closed': {
      const c = event.data.connection;
      const where = c.roomId ?? c.conversationId;
      const closed = 'closeCode' in c && c.closeCode !== null ? ` · closed ${c.closeCode}` : '';
      return `${c.kind} · ${c.identity}${where ? ` in ${where}` : ''}${closed}`;
    }
    case 'request.failed': {
      const e = event.data.error;
      return `${e.status} ${e.code} · ${e.method} ${e.route} · ${e.requestId}`;
    }
    case 'environment.reset': {
      const found = resetCounts(event.data.removed).filter(([, count]) => count > 0);
      const what = found.map(([label, count]) => `${label} ${count.toLocaleString('en-US')}`);
      const removed = `removed: ${what.length ? what.join(' · ') : 'nothing'}`;
      return event.data.snapshot ? `snapshot ${event.data.snapshot} restored · ${removed}` : removed;
    }
    case 'environment.clock_changed':
      return event.data.offsetMs === 0
        ? 'test clock back on real time'
        : `test clock advanced ${describeOffset(event.data.advancedByMs)}: ${describeOffset(event.data.offsetMs)} ahead`;
    case 'environment.faults_changed':
      return `faults ${event.data.change}: ${event.data.faults.map(faultSummary).join(' · ')}`;
    case 'environment.sockets_dropped':
      return `${event.data.percent}% of ${event.data.kind === 'all' ? 'realtime and signaling' : event.data.kind} sockets dropped`;
    case 'delivery.attempted': {
      const d = event.data.delivery;
      const answer = d.statusCode !== null ? `answered ${d.statusCode}` : (d.error ?? 'no answer');
      return `${d.eventType} to ${endpointUrl ?? d.webhookId} · attempt ${d.attempt} ${answer} · ${d.status}`;
    }
    default: {
      const messageId = textField(event, 'message', 'id');
      if (event.type.startsWith('message.') && messageId)
        return `${messageId} in ${textField(event, 'message', 'roomId')} from ${textField(event, 'message', 'senderId')}`;
      return catalogueSummary(event.data);
    }
  }
}

/** A catalogue event's main object (message, room, member…) as "key value" pairs of its ids and names. */
function catalogueSummary(data: Data): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (value !== null && typeof value === 'object') {
      const inner = Object.entries(value as Data)
        .filter(([k, v]) => typeof v === 'string' && !k.endsWith('At'))
        .map(([k, v]) => `${k} ${v}`);
      parts.push(`${key}: ${inner.join(', ')}`);
    } else if (typeof value === 'string') parts.push(`${key} ${value}`);
  }
  return parts.join(' · ');
}

/** The pages of what the event names: the connection, the error record, the webhook delivery, the room. */
export function linksOf(event: LiveEvent, projectId: string, environment: Environment): EventLink[] {
  const base = `/projects/${projectId}`;
  const env = `?env=${environment}`;
  const room = (roomId: string | null | undefined): EventLink[] =>
    roomId?.startsWith('room_') ? [{ label: 'Room', href: `${base}/rooms/${roomId}${env}` }] : [];
  switch (event.type) {
    case 'connection.opened':
    case 'connection.closed': {
      const c = event.data.connection;
      return [{ label: 'Connection', href: `${base}/observability/connections/${c.id}${env}` }, ...room(c.roomId)];
    }
    case 'request.failed':
      return [{ label: 'Error', href: `${base}/observability/errors/${event.data.error.id}${env}` }];
    case 'delivery.attempted': {
      const d = event.data.delivery;
      return [{ label: 'Delivery', href: `${base}/webhooks/${d.webhookId}/deliveries/${d.id}${env}` }];
    }
    case 'room.deleted':
      return [];
    default: {
      return room(
        event.type.startsWith('live_stream.')
          ? textField(event, 'liveStream', 'roomId')
          : textField(event, 'room', 'id'),
      );
    }
  }
}

/** Colour of a type's badge, by what it is about. */
export function colorOf(type: string): string {
  if (type === 'request.failed' || type === 'environment.reset') return 'red';
  if (type.startsWith('environment.')) return 'orange';
  if (type.startsWith('connection.')) return 'grape';
  if (type === 'delivery.attempted') return 'orange';
  if (type.startsWith('message.') || type.startsWith('reaction.')) return 'teal';
  if (type.startsWith('room.') || type.startsWith('participant.')) return 'blue';
  return 'gray';
}

/** The event types only the live stream has, beside the webhook catalogue's. */
export const STREAM_ONLY_TYPES = [
  'connection.opened',
  'connection.closed',
  'request.failed',
  'delivery.attempted',
  'environment.reset',
  'environment.clock_changed',
  'environment.faults_changed',
  'environment.sockets_dropped',
] as const satisfies readonly LiveEvent['type'][];
