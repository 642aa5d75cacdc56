import { afterAll, beforeAll, inject } from 'vitest';
import { deriveKeys } from '../../server/secret-key.js';
import { type Cluster, startCluster } from './cluster.js';
import { createKey, createProject, mintChatToken, registerUser, type TestUser } from './factories.js';
import { client } from './http.js';
import { connectRealtime, type SocketClient } from './socket-client.js';
import { TEST_SECRET_KEY } from './test-store.js';

/** The admin token every node accepts: derived from the cluster's secret key, as each node derives it. */
export const CLUSTER_ADMIN_TOKEN = `sbadmin_${deriveKeys(TEST_SECRET_KEY).key('admin-token').toString('base64url')}`;

export interface ClusterProject {
  readonly cluster: Cluster;
  /** The project's owner, registered through the proxy. */
  readonly owner: TestUser;
  readonly projectId: string;
  /** A development key of the project (unless `withKey: false`). */
  readonly key: string;
  /** The sockets the file opened: closed after its tests, before the cluster stops. */
  readonly sockets: SocketClient[];
  /** A realtime socket of `userId` on one node, around the proxy, once connected. */
  connectRealtimeOn(nodeIndex: number, userId: string): Promise<SocketClient>;
}

/**
 * A cluster of three nodes, or `nodes` (test/support/cluster.ts), for the tests of a file, with an owner, a project
 * and a development key made through the proxy: started before them, stopped after. Call it inside the file's
 * `describe.skipIf(…)`, so that a skipped file starts nothing; read its fields inside hooks and tests, not at the top
 * level.
 */
export function useClusterProject(
  options: { env?: Record<string, string>; withKey?: boolean; nodes?: number } = {},
): ClusterProject {
  let cluster: Cluster | undefined;
  let running: { owner: TestUser; projectId: string; key: string | undefined } | undefined;
  const sockets: SocketClient[] = [];
  beforeAll(async () => {
    cluster = await startCluster({
      postgresUrl: inject('postgresUrl') as string,
      nodes: options.nodes ?? 3,
      env: options.env,
    });
    const api = client(cluster.proxy.url);
    const owner = await registerUser(api);
    const projectId = (await createProject(api, owner)).id;
    const key = options.withKey === false ? undefined : (await createKey(api, projectId, owner, 'development')).key;
    running = { owner, projectId, key };
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await cluster?.stop();
  });
  const current = () => {
    if (!cluster || !running)
      throw new Error('useClusterProject: the cluster starts in beforeAll; use it inside hooks and tests');
    return { cluster, ...running };
  };
  const project: ClusterProject = {
    get cluster() {
      return current().cluster;
    },
    get owner() {
      return current().owner;
    },
    get projectId() {
      return current().projectId;
    },
    get key() {
      const { key } = current();
      if (key === undefined) throw new Error('useClusterProject: no key was made (withKey: false)');
      return key;
    },
    sockets,
    async connectRealtimeOn(nodeIndex, userId) {
      const token = await mintChatToken(client(project.cluster.proxy.url), project.key, userId);
      const socket = connectRealtime(project.cluster.nodes[nodeIndex].url, token);
      sockets.push(socket);
      await socket.next('connected');
      return socket;
    },
  };
  return project;
}
