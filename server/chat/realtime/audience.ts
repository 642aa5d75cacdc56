/**
 * Which open realtime connections each conversation reaches, kept up to date as connections open
 * and close and as members join and leave: a fan-out then walks the connections it reaches, instead
 * of asking the database for every member (1,000 of them, most offline) on every event.
 *
 * A set handed out by `of` never changes afterwards (the outbox keeps it until its next flush, as the
 * audience of the events queued for it): a later change copies it first. Sets not handed out since their
 * last change are changed in place, so a storm of connections with no events in between copies nothing.
 */
/**
 * A connection's conversations are kept in an array while they are few, a set beyond: most users are in a few
 * conversations, and a set of one took ≈150 bytes of each idle socket's heap against an array's ≈50.
 */
const FEW_CONVERSATIONS = 16;
type ConversationIds = string[] | Set<string>;

const includes = (ids: ConversationIds, id: string) => (Array.isArray(ids) ? ids.includes(id) : ids.has(id));

export function createAudience<Connection>() {
  const byConversation = new Map<string, Set<Connection>>();
  const byConnection = new Map<Connection, ConversationIds>();
  /**
   * Each conversation's id, one string however many connections hear from it: their lists hold it rather than the copy
   * each connection's query read, ≈48 bytes a connection and conversation.
   */
  const idOf = new Map<string, string>();
  const handedOut = new WeakSet<Set<Connection>>();
  const EMPTY: ReadonlySet<Connection> = new Set();

  /** The conversation's set, safe to change. */
  function writable(conversationId: string): Set<Connection> {
    const current = byConversation.get(conversationId);
    if (current && !handedOut.has(current)) return current;
    const copy = new Set(current);
    byConversation.set(conversationId, copy);
    return copy;
  }

  return {
    /** The connections a conversation's events go to now; the set stays as it is. */
    of(conversationId: string): ReadonlySet<Connection> {
      const connections = byConversation.get(conversationId);
      if (!connections) return EMPTY;
      handedOut.add(connections);
      return connections;
    },

    /** How many connections the conversation reaches now (without handing its set out). */
    size(conversationId: string): number {
      return byConversation.get(conversationId)?.size ?? 0;
    },

    /** The conversations a connection hears from. */
    conversationsOf(connection: Connection): string[] {
      return [...(byConnection.get(connection) ?? [])];
    },

    add(connection: Connection, conversationId: string): void {
      // Already there (a new conversation's members join on `conversation.created` and again on `member.added`):
      // nothing to change, so no copy of a handed-out set.
      if (byConversation.get(conversationId)?.has(connection)) return;
      if (!byConversation.has(conversationId)) idOf.set(conversationId, conversationId);
      writable(conversationId).add(connection);
      const id = idOf.get(conversationId) ?? conversationId;
      const conversationIds = byConnection.get(connection);
      if (!conversationIds) byConnection.set(connection, [id]);
      else if (includes(conversationIds, id)) return;
      else if (!Array.isArray(conversationIds)) conversationIds.add(id);
      else if (conversationIds.length < FEW_CONVERSATIONS) conversationIds.push(id);
      else byConnection.set(connection, new Set([...conversationIds, id]));
    },

    remove(connection: Connection, conversationId: string): void {
      if (byConversation.get(conversationId)?.has(connection)) {
        const connections = writable(conversationId);
        connections.delete(connection);
        if (connections.size === 0) {
          byConversation.delete(conversationId);
          idOf.delete(conversationId);
        }
      }
      const conversationIds = byConnection.get(connection);
      if (!conversationIds) return;
      if (!Array.isArray(conversationIds)) conversationIds.delete(conversationId);
      else {
        const at = conversationIds.indexOf(conversationId);
        if (at >= 0) conversationIds.splice(at, 1);
      }
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
      idOf.clear();
    },
  };
}
