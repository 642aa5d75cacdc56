import type { Logger } from 'pino';
import type { Cluster } from '../cluster/cluster.js';
import type { ClusterRoster, RosterEntry } from './cluster-roster.js';

/** How often each node looks for lost nodes that still hold places in rooms. */
export const LOST_NODE_CHECK_MS = 3_000;
/**
 * How many checks in a row a node must be missing from the node list to be lost. A node whose record expired while
 * Redis was away writes it again as soon as Redis is back, before it takes any place (node-registry.ts): a second
 * check only makes sure of it.
 */
const MISSED_CHECKS = 2;

/**
 * Frees the places of the participants of nodes that died (their heartbeat record expired: `cluster.nodes()` no
 * longer lists them), so that their rooms do not stay full: one node claims each lost node, removes its entries
 * (those it still holds: an identity that joined again elsewhere keeps its new place) and hands each to `left`.
 */
export function watchLostNodes(
  cluster: Cluster,
  roster: ClusterRoster,
  {
    logger,
    left,
    lost,
  }: {
    logger: Logger;
    left: (roomId: string, entry: RosterEntry) => void;
    /** After `node`'s participants were removed (by this node, which claimed it). */
    lost?: (node: string) => void;
  },
): { stop(): void } {
  /** Node id → checks in a row it was missing from. */
  const missing = new Map<string, number>();

  async function sweep(node: string): Promise<void> {
    let count = 0;
    for (const { roomId, identity, entry } of await roster.placesOf(node)) {
      // The release script takes the place off the lost node's list either way.
      const released = await roster.release(roomId, identity, entry?.node === node ? entry.conn : '', node);
      if (released && entry) {
        count++;
        left(roomId, entry);
      }
    }
    await roster.forget(node);
    lost?.(node);
    if (count > 0) logger.info({ node, participants: count }, 'removed the signaling participants of a lost node');
  }

  async function check(): Promise<void> {
    const [live, holding] = await Promise.all([cluster.nodes(), roster.nodes()]);
    const alive = new Set(live.map((node) => node.id));
    for (const node of missing.keys()) if (alive.has(node) || !holding.includes(node)) missing.delete(node);
    for (const node of holding) {
      if (node === cluster.nodeId || alive.has(node)) continue;
      const missed = (missing.get(node) ?? 0) + 1;
      missing.set(node, missed);
      if (missed < MISSED_CHECKS) continue;
      missing.delete(node);
      if (await roster.claimSweep(node)) await sweep(node);
    }
  }

  let checking = false;
  const timer = setInterval(() => {
    // While the bus is lost there is nobody to tell, and the node list is not to be trusted.
    if (checking || cluster.busStatus() !== 'up') return;
    checking = true;
    check()
      .catch((err: unknown) => logger.warn({ err }, 'could not look for lost nodes’ signaling participants'))
      .finally(() => {
        checking = false;
      });
  }, LOST_NODE_CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
