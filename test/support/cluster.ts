/**
 * Several Switchboard nodes as a deployment of several runs them: `switchboard serve` processes of the built CLI
 * (test/cli/build.global-setup.ts builds it), each with a data folder of its own, all on one new PostgreSQL
 * database with one secret key and one Redis, behind HAProxy. Nothing is mocked: the nodes are real processes, so
 * that a test can kill one with SIGKILL as a crash would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type StartedChild, startChild, waitUntilReady } from './child-process.js';
import { haproxyMissing, type LoadBalancer, startHaproxy } from './haproxy.js';
import { postgresMissing } from './postgres.js';
import { type RedisServer, redisMissing, startRedis } from './redis.js';
import { createDatabase, TEST_SECRET_KEY } from './test-store.js';
import { eventually } from './wait.js';

/** The built binary (see test/cli/build.global-setup.ts). */
const BIN = resolve('dist/switchboard.mjs');
/** How long a node has to answer `/healthz`: three start at once on two busy cores, the first migrating. */
const NODE_START_MS = 30_000;
/** How long one `/healthz` of a starting node may take before it is asked again. */
const CHECK_MS = 2_000;

export interface ClusterNode {
  /** The node's own address, around the proxy. */
  readonly url: string;
  /** `host:port`: how the proxy's X-Served-By header (haproxy.ts's SERVED_BY) names this node. */
  readonly address: string;
  /** Its process id, a new one after `restart`. */
  readonly pid: number | undefined;
  /** False once killed, until `restart`. */
  readonly running: boolean;
  /** The last of what it printed. */
  output(): string;
  /** Sends `signal` (SIGTERM unless given; SIGKILL for a node lost without a goodbye) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /**
   * Starts it again (stopping it first if it still runs) on the same port, data folder, database and Redis;
   * resolves once it answers `/healthz`.
   */
  restart(): Promise<void>;
}

export interface Cluster {
  nodes: ClusterNode[];
  /** HAProxy in front of the nodes: send the clients' requests to `proxy.url`. */
  proxy: LoadBalancer;
  /** The nodes' one PostgreSQL database. */
  databaseUrl: string;
  /** The nodes' Redis, which a test may pause and resume. */
  redis: RedisServer;
  /** Stops everything and deletes every folder; safe to call after a failed start or twice. */
  stop(): Promise<void>;
}

/**
 * Why a cluster cannot start here, or undefined when it can: `postgresUrl` is the run's PostgreSQL (the `cluster`
 * project's global setup provides it as `postgresUrl`).
 */
export function clusterMissing(postgresUrl: string | undefined): string | undefined {
  const reasons = [
    redisMissing(),
    haproxyMissing(),
    postgresUrl
      ? undefined
      : (postgresMissing() ??
        'no PostgreSQL was started for this run (the `cluster` project of vitest.config.ts starts one)'),
  ].filter((reason) => reason !== undefined);
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

/** This process's environment without its SWITCHBOARD_* settings, plus the cluster's. */
export function nodeEnvironment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('SWITCHBOARD_')) env[name] = value;
  return { ...env, ...settings };
}

/**
 * Runs `switchboard serve` on `port` (0: a free one) and resolves once it answers `/healthz`; `bin` is the built
 * command to run (another release's, for the upgrade tests), `extraArgs` more of serve's flags.
 */
export async function serve(
  port: number,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  bin = BIN,
  extraArgs: string[] = [],
): Promise<{ child: StartedChild; url: string }> {
  const args = [bin, 'serve', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir, ...extraArgs];
  const child = startChild('switchboard serve', process.execPath, args, { env });
  let url: string | undefined;
  try {
    await waitUntilReady(
      child,
      `switchboard serve on ${port === 0 ? 'a free port' : `port ${port}`}`,
      async () => {
        url ??= /Switchboard listening on (http:\/\/[^\s"]+)/.exec(child.output())?.[1];
        return url !== undefined && (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(CHECK_MS) })).ok;
      },
      NODE_START_MS,
    );
  } catch (err) {
    await child.stop('SIGKILL');
    throw err;
  }
  return { child, url: url as string };
}

async function startNode(env: NodeJS.ProcessEnv, folders: string[]): Promise<ClusterNode> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-node-'));
  folders.push(dataDir);
  let { child, url } = await serve(0, dataDir, env);
  const port = Number(new URL(url).port);
  const node: ClusterNode = {
    url,
    address: new URL(url).host,
    get pid() {
      return child.pid;
    },
    get running() {
      return child.exit === undefined;
    },
    output: () => child.output(),
    async kill(signal = 'SIGTERM') {
      await child.stop(signal);
    },
    async restart() {
      await child.stop('SIGTERM');
      ({ child } = await serve(port, dataDir, env));
    },
  };
  return node;
}

/** Waits until every running node's `/readyz` says `ready` again (after Redis came back, its bus is up). */
export async function everyNodeReady(cluster: Cluster, timeoutMs = 10_000): Promise<void> {
  for (const node of cluster.nodes.filter((n) => n.running)) {
    await eventually(
      async () => (await fetch(`${node.url}/readyz`)).json() as Promise<{ status: string }>,
      (body) => body.status === 'ready',
      timeoutMs,
    );
  }
}

/**
 * Starts Redis, `nodes` nodes on a new database of the PostgreSQL at `postgresUrl`, then HAProxy in front of them;
 * resolves once the proxy counts every node up. `env` adds settings of every node (`SWITCHBOARD_KEY_RATE_LIMIT`…).
 * A start that fails stops what it had started.
 */
export async function startCluster(options: {
  postgresUrl: string;
  nodes?: number;
  env?: Record<string, string>;
}): Promise<Cluster> {
  const count = options.nodes ?? 3;
  const nodes: ClusterNode[] = [];
  const folders: string[] = [];
  let redis: RedisServer | undefined;
  let proxy: LoadBalancer | undefined;
  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    // Each part stopped even when another fails to; the first failure is reported after all.
    const results = await Promise.allSettled([proxy?.stop(), ...nodes.map((node) => node.kill('SIGTERM'))]);
    results.push(...(await Promise.allSettled([redis?.stop()])));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  try {
    // One after the other, so that a failure of either leaves nothing started unknown to `stop`.
    redis = await startRedis();
    const databaseUrl = await createDatabase(options.postgresUrl);
    const env = nodeEnvironment({
      ...options.env,
      SWITCHBOARD_DATABASE_URL: databaseUrl,
      SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY,
      SWITCHBOARD_REDIS_URL: redis.url,
    });
    // The first alone: it migrates the new database and records the secret key's fingerprint in it. The others then
    // start together on a database that is ready, as nodes added to a running deployment do.
    nodes.push(await startNode(env, folders));
    const others = await Promise.allSettled(Array.from({ length: count - 1 }, () => startNode(env, folders)));
    for (const other of others) if (other.status === 'fulfilled') nodes.push(other.value);
    const failed = others.find((other) => other.status === 'rejected');
    if (failed) throw failed.reason;

    const started = await startHaproxy(nodes.map((node) => node.address));
    proxy = started;
    await eventually(
      () => started.backends(),
      (states) => nodes.every((node) => states[node.address] === 'UP'),
      10_000,
    );
    return { nodes, proxy: started, databaseUrl, redis, stop };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}
