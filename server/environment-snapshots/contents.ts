import { inArray, type SQL } from 'drizzle-orm';
import { attachments } from '../../db/schema/attachments.js';
import { conversationMembers, conversations, messages, reactions, readStates } from '../../db/schema/chat.js';
import { liveStreamParticipants, liveStreams } from '../../db/schema/live-streams.js';
import { connectionLog, errorLog, metricBuckets } from '../../db/schema/observability.js';
import { rooms } from '../../db/schema/rooms.js';
import { telemetryEvents } from '../../db/schema/telemetry.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/webhooks.js';
import { type EnvironmentScope, inScope } from '../../db/scope.js';
import type { Queries } from '../../db/store.js';
import type { ResetCounts } from '../environment-reset/service.js';

export type SnapshotKind = keyof ResetCounts;
export type SnapshotRow = Record<string, unknown>;

/**
 * The tables a snapshot holds, by the names of a reset's counts (it holds exactly what a reset removes), each after
 * the ones its foreign keys point at: the order a restore inserts them in.
 */
export const SNAPSHOT_TABLES = {
  rooms,
  conversations,
  conversationMembers,
  messages,
  reactions,
  readStates,
  attachments,
  liveStreams,
  liveStreamParticipants,
  connections: connectionLog,
  webhookDeliveries,
  webhookAttempts,
  telemetryEvents,
  metrics: metricBuckets,
  errors: errorLog,
} as const satisfies Record<SnapshotKind, unknown>;

export const SNAPSHOT_KINDS = Object.keys(SNAPSHOT_TABLES) as SnapshotKind[];

/** Which rows of each table are the scope's: as a reset finds them, those without a scope through their parents. */
export function rowsOfScope(tx: Queries, scope: EnvironmentScope): Record<SnapshotKind, SQL> {
  const ofConversations = tx.select({ id: conversations.id }).from(conversations).where(inScope(conversations, scope));
  const ofMessages = tx
    .select({ id: messages.id })
    .from(messages)
    .where(inArray(messages.conversationId, ofConversations));
  const ofStreams = tx.select({ id: liveStreams.id }).from(liveStreams).where(inScope(liveStreams, scope));
  const ofEndpoints = tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(inScope(webhookEndpoints, scope));
  const ofDeliveries = tx
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.endpointId, ofEndpoints));
  return {
    rooms: inScope(rooms, scope),
    conversations: inScope(conversations, scope),
    conversationMembers: inArray(conversationMembers.conversationId, ofConversations),
    messages: inArray(messages.conversationId, ofConversations),
    reactions: inArray(reactions.messageId, ofMessages),
    readStates: inArray(readStates.conversationId, ofConversations),
    attachments: inArray(attachments.conversationId, ofConversations),
    liveStreams: inScope(liveStreams, scope),
    liveStreamParticipants: inArray(liveStreamParticipants.streamId, ofStreams),
    connections: inScope(connectionLog, scope),
    webhookDeliveries: inArray(webhookDeliveries.endpointId, ofEndpoints),
    webhookAttempts: inArray(webhookAttempts.deliveryId, ofDeliveries),
    telemetryEvents: inScope(telemetryEvents, scope),
    metrics: inScope(metricBuckets, scope),
    errors: inScope(errorLog, scope),
  };
}

/** How many rows of each kind. */
export const countsOf = (rows: Record<SnapshotKind, SnapshotRow[]>): ResetCounts =>
  Object.fromEntries(SNAPSHOT_KINDS.map((kind) => [kind, rows[kind].length])) as unknown as ResetCounts;
