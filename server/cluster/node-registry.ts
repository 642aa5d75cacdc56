import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** One live node, as `GET /v1/server/nodes` and `switchboard status` list it. */
export interface NodeInfo {
  id: string;
  version: string;
  /** Where it listens: its host name when bound to every address (0.0.0.0, ::), else the address it was given. */
  host: string;
  /** 0 until it listens. */
  port: number;
  /** ISO time the node started. */
  startedAt: string;
  /** ISO time of the heartbeat this record is from (for the node that answers: now). */
  heartbeatAt: string;
  /** Its realtime and signaling sockets open at `heartbeatAt`. */
  connections: { realtime: number; signaling: number };
  /**
   * The ids of the secret keys it holds (two during a rotation) and of the one it seals with. Absent from the record
   * of a node of a version before rotations, which a rotation takes for one without the new key.
   */
  secretKeys?: { held: string[]; sealing: string };
}

/** What a log line says of another node. */
const describeNode = (node: NodeInfo) => ({ id: node.id, host: node.host, port: node.port, version: node.version });

/** How often a node says it is alive. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** A node that has not said so for this long is gone (killed, cut off): three heartbeats missed. */
export const NODE_TTL_MS = 15_000;

const NODES_KEY = 'switchboard:nodes';
/** A node's record is this followed by its id: it exists while the node is alive. */
export const NODE_KEY_PREFIX = 'switchboard:node:';
const nodeKey = (id: string) => `${NODE_KEY_PREFIX}${id}`;
/** Set for a minute by a node that stops cleanly, so that the others say it left rather than that it was lost. */
const leftKey = (id: string) => `switchboard:node-left:${id}`;
const LEFT_MARK_MS = 60_000;

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
  /** The other nodes as of the last heartbeat: what changed since is logged (undefined before the first look). */
  let peers: Map<string, NodeInfo> | undefined;
  async function noticePeers(): Promise<void> {
    const selfId = self().id;
    const now = new Map((await list()).filter((node) => node.id !== selfId).map((node) => [node.id, node]));
    const before = peers;
    peers = now;
    if (!before) return;
    for (const [id, node] of now) if (!before.has(id)) logger.info({ node: describeNode(node) }, 'a node joined');
    for (const [id, node] of before) {
      if (now.has(id)) continue;
      if (await redis.exists(leftKey(id))) logger.info({ node: describeNode(node) }, 'a node left (it stopped)');
      else
        logger.warn(
          { node: describeNode(node) },
          `a node is lost: no heartbeat for ${NODE_TTL_MS / 1000} s (its deliveries go to the others when their leases end)`,
        );
    }
  }
  async function list(): Promise<NodeInfo[]> {
    const ids = await redis.smembers(NODES_KEY);
    if (ids.length === 0) return [];
    const records = await redis.mget(ids.map(nodeKey));
    const gone = ids.filter((_id, i) => records[i] === null);
    if (gone.length > 0) await redis.srem(NODES_KEY, ...gone);
    return records
      .filter((record): record is string => record !== null)
      .map((record) => JSON.parse(record) as NodeInfo)
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
  }
  // Redis back (or a new one, empty): it learns at once that this node is alive, before the node serves a socket again,
  // rather than at the next heartbeat; meanwhile the others would take it for dead and sweep what it holds (its
  // users' presence, its signaling places: server/rtc/lost-nodes.ts).
  const beatWhenBack = () => {
    // A Redis back may be a new, empty one that the others have not told yet that they are alive: the next look
    // starts afresh rather than call them lost.
    peers = undefined;
    beat()
      .then(() => onBeat?.())
      .catch((err: unknown) => logger.warn({ err }, 'cluster heartbeat failed'));
  };
  return {
    async start(): Promise<void> {
      await beat();
      await noticePeers().catch((err: unknown) => logger.warn({ err }, 'the node list could not be read'));
      redis.on('ready', beatWhenBack);
      timer = setInterval(() => {
        // While Redis is away there is nobody to tell; the heartbeat when it is back does.
        if (redis.status !== 'ready') return;
        beat()
          .then(() => onBeat?.())
          .then(noticePeers)
          .catch((err: unknown) => logger.warn({ err }, 'cluster heartbeat failed'));
      }, HEARTBEAT_INTERVAL_MS);
      timer.unref();
    },

    /** Every live node, this one included, oldest first. */
    list,

    /** Writes this node's record now (once it listens, its address), rather than at the next heartbeat. */
    beat,

    /** Leaves the list at once (a clean stop), rather than NODE_TTL_MS later. */
    async stop(): Promise<void> {
      clearInterval(timer);
      redis.off('ready', beatWhenBack);
      const { id } = self();
      if (redis.status === 'ready')
        await redis.multi().set(leftKey(id), '1', 'PX', LEFT_MARK_MS).del(nodeKey(id)).srem(NODES_KEY, id).exec();
    },
  };
}
