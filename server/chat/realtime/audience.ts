/**
 * Which open realtime connections each conversation reaches, kept up to date as connections open
 * and close and as members join and leave: a fan-out then walks the connections it reaches, instead
 * of asking the database for every member (1,000 of them, most offline) on every event.
 */
export function createAudience<Connection>() {
  const byConversation = new Map<string, Set<Connection>>();
  const byConnection = new Map<Connection, Set<string>>();

  return {
    /** The connections a conversation's events go to now. */
    of(conversationId: string): ReadonlySet<Connection> {
      return byConversation.get(conversationId) ?? new Set();
    },

    /** The conversations a connection hears from. */
    conversationsOf(connection: Connection): string[] {
      return [...(byConnection.get(connection) ?? [])];
    },

    add(connection: Connection, conversationId: string): void {
      let connections = byConversation.get(conversationId);
      if (!connections) {
        connections = new Set();
        byConversation.set(conversationId, connections);
      }
      connections.add(connection);
      let conversationIds = byConnection.get(connection);
      if (!conversationIds) {
        conversationIds = new Set();
        byConnection.set(connection, conversationIds);
      }
      conversationIds.add(conversationId);
    },

    remove(connection: Connection, conversationId: string): void {
      const connections = byConversation.get(conversationId);
      connections?.delete(connection);
      if (connections?.size === 0) byConversation.delete(conversationId);
      byConnection.get(connection)?.delete(conversationId);
    },

    /** Forgets a closed connection; answers the conversations it heard from. */
    drop(connection: Connection): string[] {
      const conversationIds = this.conversationsOf(connection);
      for (const conversationId of conversationIds) this.remove(connection, conversationId);
      byConnection.delete(connection);
      return conversationIds;
    },

    clear(): void {
      byConversation.clear();
      byConnection.clear();
    },
  };
}
