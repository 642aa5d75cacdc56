import type { RequestHandler } from 'express';
import type { Store } from '../../db/store.js';
import type { Cluster } from '../cluster/cluster.js';

/** How long the store has to answer a readiness check before it counts as down. */
const PING_TIMEOUT_MS = 2_000;

/**
 * `/readyz`: whether this server can serve the API now, for a load balancer or orchestrator deciding where to send
 * traffic (`/healthz` only says the process is up). 200 when the store answers a trivial query in time; 503 with
 * Retry-After and what is down otherwise. It never says where the store is.
 *
 * A server of several nodes also says whether realtime works (`realtime`: the bus to the other nodes, Redis): while
 * it is lost the answer is still 200, `status: degraded` — the API works, realtime sockets are refused until it is
 * back — because taking every node out of rotation for it would take the API down too.
 */
export function readiness(store: Store, cluster: Cluster): RequestHandler {
  return async (_req, res) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('no answer in time')), PING_TIMEOUT_MS);
    });
    const bus = cluster.busStatus();
    const realtime = bus === 'alone' ? {} : { realtime: { bus: 'redis', status: bus === 'up' ? 'up' : 'degraded' } };
    try {
      await Promise.race([store.ping(), timeout]);
      res.json({
        status: bus === 'down' ? 'degraded' : 'ready',
        store: { kind: store.dialect, status: 'up' },
        ...realtime,
      });
    } catch {
      res
        .status(503)
        .set('Retry-After', '1')
        .json({ status: 'unavailable', store: { kind: store.dialect, status: 'down' }, ...realtime });
    } finally {
      clearTimeout(timer);
    }
  };
}
