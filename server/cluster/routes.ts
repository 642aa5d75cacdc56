import { defineRoute } from '../http/route.js';
import { shortKeyId } from '../secret-key.js';
import { rotationStatus } from '../secret-key-rotation/state.js';
import type { NodeInfo } from './node-registry.js';
import { nodeListSchema } from './schemas.js';

/** A node's record, its key ids shortened as everywhere they are shown. */
const presentNode = (node: NodeInfo) => ({
  ...node,
  ...(node.secretKeys && {
    secretKeys: { held: node.secretKeys.held.map(shortKeyId), sealing: shortKeyId(node.secretKeys.sealing) },
  }),
});

export const clusterRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/server/nodes',
    operationId: 'listServerNodes',
    summary: 'List the live nodes',
    description:
      'Every server running on this database and reachable through Redis, oldest first: one, without Redis. A node ' +
      'that stops cleanly leaves the list at once; one that dies leaves it within 15 s. With the admin token, or the ' +
      'session of an owner of any project. `secretKey` says where a secret key rotation stands.',
    tag: 'Server',
    auth: 'admin-or-owner',
    response: nodeListSchema,
    handler: async ({ app }) => {
      const { cluster, store, keys } = app;
      const bus = cluster.busStatus();
      // While the bus is lost, the others cannot be asked: this node answers for itself.
      const nodes = bus === 'down' ? [cluster.self()] : await cluster.nodes();
      return {
        data: nodes.map((node) => ({
          ...presentNode(node.id === cluster.nodeId ? cluster.self() : node),
          self: node.id === cluster.nodeId,
        })),
        bus: bus === 'alone' ? ('none' as const) : bus,
        secretKey: await rotationStatus(store.db, keys.secretKeys),
      };
    },
  }),
];
