import { type Column, count, inArray, ne, type SQL } from 'drizzle-orm';
import { conversationMembers, conversations, messages, reactions, readStates } from '../../db/schema/chat.js';
import { liveStreamParticipants, liveStreams } from '../../db/schema/live-streams.js';
import { connectionLog, errorLog, metricBuckets } from '../../db/schema/observability.js';
import { rooms } from '../../db/schema/rooms.js';
import { telemetryEvents } from '../../db/schema/telemetry.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/webhooks.js';
import { type EnvironmentScope, inScope } from '../../db/scope.js';
import type { Queries } from '../../db/store.js';
import type { Actor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { AttachmentService } from '../chat/attachments/service.js';
import type { Infrastructure } from '../context.js';
import { refuseProduction } from '../testing-tools.js';

/** What a reset removed, by kind, in the order the API shows it. */
export type ResetCounts = {
  rooms: number;
  conversations: number;
  conversationMembers: number;
  messages: number;
  reactions: number;
  readStates: number;
  attachments: number;
  liveStreams: number;
  liveStreamParticipants: number;
  connections: number;
  webhookDeliveries: number;
  webhookAttempts: number;
  telemetryEvents: number;
  metrics: number;
  errors: number;
};

export interface EnvironmentReset {
  scope: EnvironmentScope;
  removed: ResetCounts;
  resetAt: number;
}

/**
 * Empties one project environment of its runtime data, for isolation between test runs: what apps and their users
 * made (rooms, chat, attachments, live streams), what the server recorded about it (connections, webhook
 * deliveries, telemetry, metrics, errors), in one transaction with its audit entry. Kept: the API keys, the webhook
 * endpoints (their run of failures starts again at 0, its deliveries being gone; a disabled one stays disabled), the
 * members and the audit log. Never production's.
 */
export function createEnvironmentResetService(
  { store, clock, events, logger }: Infrastructure,
  audit: AuditService,
  attachments: AttachmentService,
) {
  /**
   * Set-based deletes, children before parents, each reaching its rows through an index: a table without one on the
   * scope (messages, deliveries…) through its parent's ids. The cascades of the foreign keys then find nothing left.
   */
  async function deleteRuntimeData(
    tx: Queries,
    scope: EnvironmentScope,
  ): Promise<{ removed: ResetCounts; removeFiles(keep?: ReadonlySet<string>): void }> {
    const scopeConversations = tx
      .select({ id: conversations.id })
      .from(conversations)
      .where(inScope(conversations, scope));
    const ofConversations = (column: Column) => inArray(column, scopeConversations);
    const scopeMessages = tx.select({ id: messages.id }).from(messages).where(ofConversations(messages.conversationId));
    const scopeStreams = tx.select({ id: liveStreams.id }).from(liveStreams).where(inScope(liveStreams, scope));
    const scopeEndpoints = tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(inScope(webhookEndpoints, scope));
    const scopeDeliveries = tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.endpointId, scopeEndpoints));
    /**
     * Deletes the rows of `table` that `where` picks and answers how many: counted first, in the same transaction, as
     * `changes` is SQLite's alone and a RETURNING row per deleted row costs three times the delete (10,000 rows).
     */
    const remove = async (table: Parameters<Queries['delete']>[0], where: SQL | undefined): Promise<number> => {
      const [{ rows }] = await tx.select({ rows: count() }).from(table).where(where);
      await tx.delete(table).where(where);
      return rows;
    };

    // Children first: each delete's count is its own rows, never a cascade's.
    const reactionCount = await remove(reactions, inArray(reactions.messageId, scopeMessages));
    const readStateCount = await remove(readStates, ofConversations(readStates.conversationId));
    const files = await attachments.deleteInScopeIn(tx, scope);
    const messageCount = await remove(messages, ofConversations(messages.conversationId));
    const participantCount = await remove(
      liveStreamParticipants,
      inArray(liveStreamParticipants.streamId, scopeStreams),
    );
    const streamCount = await remove(liveStreams, inScope(liveStreams, scope));
    const memberCount = await remove(conversationMembers, ofConversations(conversationMembers.conversationId));
    const attemptCount = await remove(webhookAttempts, inArray(webhookAttempts.deliveryId, scopeDeliveries));
    // In the order the API shows them: what was made, then what was recorded about it.
    const removed: ResetCounts = {
      rooms: await remove(rooms, inScope(rooms, scope)),
      conversations: await remove(conversations, inScope(conversations, scope)),
      conversationMembers: memberCount,
      messages: messageCount,
      reactions: reactionCount,
      readStates: readStateCount,
      attachments: files.removed,
      liveStreams: streamCount,
      liveStreamParticipants: participantCount,
      connections: await remove(connectionLog, inScope(connectionLog, scope)),
      webhookDeliveries: await remove(webhookDeliveries, inArray(webhookDeliveries.endpointId, scopeEndpoints)),
      webhookAttempts: attemptCount,
      telemetryEvents: await remove(telemetryEvents, inScope(telemetryEvents, scope)),
      metrics: await remove(metricBuckets, inScope(metricBuckets, scope)),
      errors: await remove(errorLog, inScope(errorLog, scope)),
    };
    await tx
      .update(webhookEndpoints)
      .set({ consecutiveFailures: 0 })
      .where(inScope(webhookEndpoints, scope, ne(webhookEndpoints.consecutiveFailures, 0)));
    return { removed, removeFiles: files.removeFiles };
  }

  return {
    /**
     * What a reset deletes, in the caller's transaction (a snapshot's restore, which puts its own rows back): answers
     * the counts and the removal of the attachment files, to call after the commit.
     */
    deleteRuntimeDataIn: deleteRuntimeData,

    async reset(actor: Actor, scope: EnvironmentScope): Promise<EnvironmentReset> {
      refuseProduction(
        scope,
        'The production environment cannot be reset: its data is your live app’s. Reset development or staging.',
      );
      const resetAt = clock.now();
      const { removed, removeFiles } = await store.transaction(async (tx) => {
        const deleted = await deleteRuntimeData(tx, scope);
        await audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'environment.reset',
          target: { type: 'environment', id: scope.environment },
          environment: scope.environment,
          details: { removed: deleted.removed },
        });
        return deleted;
      });
      // After the commit: sockets close and memory forgets the environment, then the files go.
      events.emit('environment.reset', { ...scope, removed });
      try {
        removeFiles();
      } catch (err) {
        logger.error({ err, ...scope }, 'environment reset: could not delete every attachment file');
      }
      return { scope, removed, resetAt };
    },
  };
}

export type EnvironmentResetService = ReturnType<typeof createEnvironmentResetService>;
