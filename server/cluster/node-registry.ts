import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** One live node, as `GET /v1/server/nodes` and `switchboard status` list it. */
export interface NodeInfo {
  id: string;
  version: string;
  /** ISO time the node started. */
  startedAt: string;
  /** Its realtime and signaling sockets open now (as of its last heartbeat for another node). */
  connections: { realtime: number; signaling: number };
}

/** How often a node says it is alive. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** A node that has not said so for this long is gone (killed, cut off): three heartbeats missed. */
export const NODE_TTL_MS = 15_000;

const NODES_KEY = 'switchboard:nodes';
/** A node's record is this followed by its id: it exists while the node is alive. */
export const NODE_KEY_PREFIX = 'switchboard:node:';
const nodeKey = (id: string) => `${NODE_KEY_PREFIX}${id}`;

/**
 * The live nodes, in Redis: each node's record expires NODE_TTL_MS after its last heartbeat, so a node that died
 * leaves the list by itself; the set of ids only says where to look, and ids whose record expired are swept from it.
 */
export function createNodeRegistry(
  redis: Redis,
  self: () => NodeInfo,
  { logger, onBeat }: { logger: Logger; onBeat?: () => Promise<void> },
) {
  async function beat(): Promise<void> {
    const info = self();
    await redis.multi().set(nodeKey(info.id), JSON.stringify(info), 'PX', NODE_TTL_MS).sadd(NODES_KEY, info.id).exec();
  }
  let timer: NodeJS.Timeout | undefined;
  // Redis back (or a new one, empty): it learns at once that this node is alive, before the node serves a socket again,
  // rather than at the next heartbeat; meanwhile the others would take it for dead and sweep what it holds (its
  // users' presence, its signaling places: server/rtc/lost-nodes.ts).
  const beatWhenBack = () => {
    beat()
      .then(() => onBeat?.())
      .catch((err: unknown) => logger.warn({ err }, 'cluster heartbeat failed'));
  };
  return {
    async start(): Promise<void> {
      await beat();
      redis.on('ready', beatWhenBack);
      timer = setInterval(() => {
        // While Redis is away there is nobody to tell; the heartbeat when it is back does.
        if (redis.status !== 'ready') return;
        beat()
          .then(() => onBeat?.())
          .catch((err: unknown) => logger.warn({ err }, 'cluster heartbeat failed'));
      }, HEARTBEAT_INTERVAL_MS);
      timer.unref();
    },

    /** Every live node, this one included, oldest first. */
    async list(): Promise<NodeInfo[]> {
      const ids = await redis.smembers(NODES_KEY);
      if (ids.length === 0) return [];
      const records = await redis.mget(ids.map(nodeKey));
      const gone = ids.filter((_id, i) => records[i] === null);
      if (gone.length > 0) await redis.srem(NODES_KEY, ...gone);
      return records
        .filter((record): record is string => record !== null)
        .map((record) => JSON.parse(record) as NodeInfo)
        .sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
    },

    /** Leaves the list at once (a clean stop), rather than NODE_TTL_MS later. */
    async stop(): Promise<void> {
      clearInterval(timer);
      redis.off('ready', beatWhenBack);
      const { id } = self();
      if (redis.status === 'ready') await redis.multi().del(nodeKey(id)).srem(NODES_KEY, id).exec();
    },
  };
}
