import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ServerSlot, Store } from '../../db/store.js';
import type { EventBus } from '../events/bus.js';
import type { SecretKeys } from '../key-ring.js';
import type { Tracing } from '../tracing/tracing.js';
import { ClusterError } from './cluster-error.js';
import { createNodeRegistry, type NodeInfo } from './node-registry.js';
import { relayEvents } from './relay.js';

export type { NodeInfo } from './node-registry.js';

/**
 * Whether this node hears the others: `alone` when there are none to hear (no Redis), `up` while Redis carries their
 * events, `down` while it does not (this node's own work goes on; the realtime side closes its sockets).
 */
export type BusStatus = 'alone' | 'up' | 'down';

export interface Cluster {
  readonly nodeId: string;
  busStatus(): BusStatus;
  /** Told each time the bus is lost or back (never while `alone`). */
  onBusChange(listener: (status: 'up' | 'down') => void): () => void;
  /** Every live node, oldest first; without Redis, just this one. */
  nodes(): Promise<NodeInfo[]>;
  /** This node, as of now. */
  self(): NodeInfo;
  /** Where this node listens, once it does: its record says so from then on. */
  listeningOn(address: { host: string; port: number }): void;
  /** Writes this node's record now rather than at the next heartbeat (its sealing key changed). */
  announce(): Promise<void>;
  /** How this node counts its open sockets, for its heartbeats and the node list: set by the runtime. */
  countConnections(count: () => NodeInfo['connections']): void;
  /** Redis, shared by the parts that keep state for the whole cluster (limits, presence); none when alone. */
  readonly redis: Redis | undefined;
  close(): Promise<void>;
}

export interface ClusterOptions {
  store: Store;
  events: EventBus;
  redisUrl?: string;
  nodeId: string;
  version: string;
  startedAt: number;
  logger: Logger;
  /** Each event's hop between nodes is a span when the server traces (relay.ts). */
  tracing: Tracing;
  /** The keys this node holds and seals with, which its record shows the others (a secret key rotation waits on it). */
  secretKeys: SecretKeys;
}

const ALONE_REFUSED =
  'Another Switchboard server is running on this database: several servers on one PostgreSQL database need Redis ' +
  'between them (the same SWITCHBOARD_REDIS_URL, or --redis-url, on every one).';
const BESIDE_REFUSED =
  'A Switchboard server without Redis is running on this database: stop it, or give it the same ' +
  'SWITCHBOARD_REDIS_URL as this one.';

/**
 * Takes this server's place among those on its database. Without Redis it must be the only one (a second server
 * would neither hear the first's realtime events nor share its limits: refused at start, see Store.takeServerSlot);
 * with Redis, its events go to the others and theirs come here (relay.ts), and it appears in the node list.
 */
export async function joinCluster(options: ClusterOptions): Promise<Cluster> {
  const { store, events, redisUrl, nodeId, version, startedAt, logger, tracing, secretKeys } = options;
  let counts = (): NodeInfo['connections'] => ({ realtime: 0, signaling: 0 });
  let address = { host: '', port: 0 };
  const self = (): NodeInfo => ({
    id: nodeId,
    version,
    ...address,
    startedAt: new Date(startedAt).toISOString(),
    heartbeatAt: new Date().toISOString(),
    connections: counts(),
    secretKeys: {
      held: [secretKeys.current, secretKeys.previous].filter((id) => id !== undefined),
      sealing: secretKeys.sealing,
    },
  });
  const listeningOn = ({ host, port }: { host: string; port: number }) => {
    // Bound to every address, the node is best named by its machine's name.
    address = { host: host === '0.0.0.0' || host === '::' || host === '' ? hostname() : host, port };
  };

  if (redisUrl && store.dialect === 'sqlite')
    logger.warn('Redis is not used: a server on SQLite runs alone (Redis joins servers on one PostgreSQL database).');
  if (!redisUrl || store.dialect === 'sqlite') {
    const slot = await store.takeServerSlot('alone');
    if (!slot) throw new ClusterError(ALONE_REFUSED);
    return {
      nodeId,
      busStatus: () => 'alone',
      onBusChange: () => () => {},
      nodes: async () => [self()],
      self,
      listeningOn,
      announce: async () => {},
      countConnections(count) {
        counts = count;
      },
      redis: undefined,
      close: () => slot.release(),
    };
  }

  const { connectRedis } = await import('./redis-connection.js');
  const publisher = await connectRedis(redisUrl, `${nodeId}-commands`, logger);
  let subscriber: Redis | undefined;
  let slot: ServerSlot | false = false;
  try {
    subscriber = await connectRedis(redisUrl, `${nodeId}-events`, logger);
    slot = await store.takeServerSlot('beside-others');
    if (!slot) throw new ClusterError(BESIDE_REFUSED);
  } catch (err) {
    publisher.disconnect();
    subscriber?.disconnect();
    throw err;
  }
  const bus = subscriber;
  const taken = slot;

  const listeners = new Set<(status: 'up' | 'down') => void>();
  let status: 'up' | 'down' = 'up';
  /** Set by `close`: the connections it closes are not a bus lost. */
  let closing = false;
  function update(): void {
    if (closing) return;
    const now = publisher.status === 'ready' && bus.status === 'ready' ? 'up' : 'down';
    if (now === status) return;
    status = now;
    logger[now === 'up' ? 'info' : 'warn'](
      now === 'up' ? 'the cluster bus is back' : 'the cluster bus (Redis) is lost: realtime is degraded',
    );
    for (const listener of listeners) listener(now);
  }
  for (const connection of [publisher, bus]) {
    connection.on('ready', update);
    connection.on('close', update);
  }

  const relay = await relayEvents(events, { publisher, subscriber: bus, nodeId, logger, tracing });
  const registry = createNodeRegistry(publisher, self, { logger });
  await registry.start();
  logger.info({ nodeId }, 'joined the cluster');

  return {
    nodeId,
    busStatus: () => status,
    onBusChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    nodes: () => registry.list(),
    self,
    listeningOn(at) {
      listeningOn(at);
      registry.beat().catch((err: unknown) => logger.warn({ err }, 'cluster heartbeat failed'));
    },
    announce: () => registry.beat(),
    countConnections(count) {
      counts = count;
    },
    redis: publisher,
    async close() {
      closing = true;
      relay.stop();
      await registry.stop().catch(() => {});
      listeners.clear();
      publisher.disconnect();
      bus.disconnect();
      await taken.release();
    },
  };
}
