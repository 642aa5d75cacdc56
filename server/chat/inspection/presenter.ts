import { toIso, toIsoOrNull } from '../../clock.js';
import type { Environment } from '../../environments.js';

/** A conversation as the dashboard lists it: metadata and counts, never content. */
export function presentInspectedConversation(
  conversation: { id: string; name: string; createdAt: number },
  memberCount: number,
  activity: { count: number; lastAt: number | null } | undefined,
) {
  return {
    id: conversation.id,
    name: conversation.name,
    memberCount,
    messageCount: activity?.count ?? 0,
    lastMessageAt: toIsoOrNull(activity?.lastAt ?? null),
    createdAt: toIso(conversation.createdAt),
  };
}

export const presentChatConnection = (connection: { id: string; userId: string; connectedAt: number }) => ({
  id: connection.id,
  userId: connection.userId,
  connectedAt: toIso(connection.connectedAt),
});

export function presentChatOverview(
  environment: Environment,
  counts: { conversations: number; members: number; messages: number },
  connections: readonly { userId: string }[],
) {
  return {
    environment,
    ...counts,
    connections: connections.length,
    onlineUsers: new Set(connections.map((c) => c.userId)).size,
  };
}
