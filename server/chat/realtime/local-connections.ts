import { type EnvironmentScope, scopeKey } from '../../../db/scope.js';

/** What the index needs of a connection: whose it is. */
export interface UserConnection {
  scope: EnvironmentScope;
  userId: string;
}

/**
 * The realtime connections open on this node, by project environment and then by user, each user's oldest first.
 *
 * - Keyed by environment, then by user id: one key per user, joining the environment's ids to the user's, took ≈80
 *   bytes of each idle socket (a heap snapshot of 1,000); the user id is the connection's own string.
 * - A user's connections are an array, replaced whole on each change, not a set: a user nearly always has one or two,
 *   and a set of one takes ≈150 bytes against ≈56.
 */
export function createLocalConnections<Connection extends UserConnection>() {
  const byEnvironment = new Map<string, Map<string, readonly Connection[]>>();

  return {
    /** The user's connections in the environment, oldest first. */
    of(scope: EnvironmentScope, userId: string): readonly Connection[] {
      return byEnvironment.get(scopeKey(scope))?.get(userId) ?? [];
    },

    /** Whether the connection was added and not removed since. */
    has(connection: Connection): boolean {
      return this.of(connection.scope, connection.userId).includes(connection);
    },

    /** Adds a connection; answers how many its user had here before it. */
    add(connection: Connection): number {
      const key = scopeKey(connection.scope);
      const users = byEnvironment.get(key) ?? new Map<string, readonly Connection[]>();
      byEnvironment.set(key, users);
      const existing = users.get(connection.userId) ?? [];
      // concat makes an array of the exact length; a spread grows one as pushes do, to room for 17 (≈150 bytes).
      users.set(connection.userId, existing.concat(connection));
      return existing.length;
    },

    /** Removes a connection; answers how many its user has left here, or undefined if it was not here. */
    remove(connection: Connection): number | undefined {
      const key = scopeKey(connection.scope);
      const users = byEnvironment.get(key);
      const held = users?.get(connection.userId);
      if (!users || !held?.includes(connection)) return undefined;
      const remaining = held.filter((c) => c !== connection);
      if (remaining.length > 0) users.set(connection.userId, remaining);
      else users.delete(connection.userId);
      if (users.size === 0) byEnvironment.delete(key);
      return remaining.length;
    },

    /** Removes the connections of every environment `inScope` picks; answers them, a user's together. */
    removeWhere(inScope: (scope: EnvironmentScope) => boolean): (readonly Connection[])[] {
      const removed: (readonly Connection[])[] = [];
      for (const [key, users] of byEnvironment) {
        const [some] = users.values();
        if (!some?.[0] || !inScope(some[0].scope)) continue;
        byEnvironment.delete(key);
        removed.push(...users.values());
      }
      return removed;
    },

    /** Each user's connections, a user's together. */
    *users(): IterableIterator<readonly Connection[]> {
      for (const users of byEnvironment.values()) yield* users.values();
    },

    /** Every connection. */
    *each(): IterableIterator<Connection> {
      for (const held of this.users()) yield* held;
    },

    /** Whether no connection is open here. */
    isEmpty(): boolean {
      return byEnvironment.size === 0;
    },

    clear(): void {
      byEnvironment.clear();
    },
  };
}
