// The harness of the tests of several nodes (test/support/cluster.ts) does what they will rely on: three
// `switchboard serve` processes on one PostgreSQL database, behind HAProxy, with Redis. Real processes throughout:
// a node is killed with SIGKILL as a crash would kill it.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Cluster, clusterMissing, startCluster } from '../support/cluster.js';
import { createKey, createProject, mintChatToken, PASSWORD, registerUser } from '../support/factories.js';
import { SERVED_BY } from '../support/haproxy.js';
import { client } from '../support/http.js';
import { connectRealtime } from '../support/socket-client.js';
import { eventually } from '../support/wait.js';

const missing = clusterMissing(inject('postgresUrl'));
if (missing) console.warn(`Skipping the cluster harness tests: ${missing}`);

/** Which node served each of `count` GET /healthz through the proxy, by address; every one must succeed. */
async function servedBy(url: string, count: number): Promise<string[]> {
  const served: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/healthz`);
    expect(res.status, await res.text()).toBe(200);
    served.push(res.headers.get(SERVED_BY) ?? 'no X-Served-By');
  }
  return served;
}

describe.skipIf(missing !== undefined)('three nodes behind HAProxy, on one PostgreSQL database, with Redis', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ postgresUrl: inject('postgresUrl') as string, nodes: 3 });
  });
  afterAll(() => cluster?.stop());

  it('answers /healthz in turn from each node: nothing sticky', async () => {
    const served = await servedBy(cluster.proxy.url, 9);
    const addresses = cluster.nodes.map((node) => node.address);
    for (const address of served) expect(addresses).toContain(address);
    // Round robin: each node three times, whichever it starts with.
    for (const address of addresses) expect(served.filter((a) => a === address)).toHaveLength(3);
  });

  it('serves the API through the proxy, every node reading what another wrote', async () => {
    const api = client(cluster.proxy.url);
    const email = `cluster-${Date.now()}@example.test`;
    const registered = await api.post('/v1/auth/register', { body: { email, password: PASSWORD } });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const writer = registered.headers.get(SERVED_BY);
    const others = cluster.nodes.filter((node) => node.address !== writer);
    expect(others).toHaveLength(2);
    for (const node of others) {
      const signedIn = await client(node.url).post('/v1/auth/login', { body: { email, password: PASSWORD } });
      expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
      // The session the first node made is good on this one: one database, one secret key.
      const project = await client(node.url).post('/v1/projects', {
        token: registered.body.token,
        body: { name: `made on ${node.address}` },
      });
      expect(project.status, JSON.stringify(project.body)).toBe(201);
    }
    expect((await api.post('/v1/auth/login', { body: { email, password: PASSWORD } })).status).toBe(200);
  });

  it('passes WebSocket upgrades through to the nodes', async () => {
    const api = client(cluster.proxy.url);
    // Refused by the node itself, after the handshake: the close code is the server's, not the proxy's.
    expect(await connectRealtime(cluster.proxy.url).closed).toEqual({ code: 4400, reason: 'missing access_token' });

    const owner = await registerUser(api);
    const project = await createProject(api, owner);
    const key = await createKey(api, project.id, owner, 'development');
    const socket = connectRealtime(cluster.proxy.url, await mintChatToken(api, key.key, 'alice'));
    try {
      expect(await socket.next('connected')).toMatchObject({ type: 'connected', userId: 'alice' });
      socket.send({ type: 'ping' });
      expect(await socket.next('pong')).toEqual({ type: 'pong' });
    } finally {
      socket.close();
    }
  });

  it('pauses and resumes Redis on the same URL', async () => {
    const ping = async () => {
      const redis = new Redis(cluster.redis.url, {
        lazyConnect: true,
        retryStrategy: () => null,
        maxRetriesPerRequest: 0,
      });
      redis.on('error', () => {});
      try {
        await redis.connect();
        return await redis.ping();
      } catch (err) {
        return (err as Error).message;
      } finally {
        redis.disconnect();
      }
    };
    expect(await ping()).toBe('PONG');
    await cluster.redis.pause();
    expect(await ping()).toMatch(/ECONNREFUSED|closed/);
    await cluster.redis.resume();
    expect(await ping()).toBe('PONG');
  });

  it('keeps serving through the other two when a node is killed with SIGKILL, and takes it back once restarted', async () => {
    const [victim, ...survivors] = cluster.nodes;
    const pid = victim.pid;
    await victim.kill('SIGKILL');
    expect(victim.running).toBe(false);
    const killedAt = Date.now();

    // At once, before the health checks notice: a request sent to the dead node is retried on another.
    const served = await servedBy(cluster.proxy.url, 9);
    expect(served).not.toContain(victim.address);
    // Out of the rotation within a few seconds: two failed checks, 500 ms apart then 250 ms.
    await eventually(
      () => cluster.proxy.backends(),
      (states) => states[victim.address]?.startsWith('DOWN') === true,
      3_000,
    );
    expect(Date.now() - killedAt).toBeLessThan(3_000);
    const after = await servedBy(cluster.proxy.url, 8);
    for (const node of survivors) expect(after.filter((a) => a === node.address)).toHaveLength(4);

    await victim.restart();
    expect(victim.pid).not.toBe(pid);
    await eventually(
      () => cluster.proxy.backends(),
      (states) => states[victim.address] === 'UP',
      5_000,
    );
    expect(new Set(await servedBy(cluster.proxy.url, 9))).toEqual(new Set(cluster.nodes.map((node) => node.address)));
  });

  it('logs one JSON object a line; a clean stop warns of nothing, and the others log a node that left, joined or was lost', async () => {
    const [observer, , other] = cluster.nodes;
    const port = Number(other.address.split(':')[1]);
    /** The observer logged `msg` about the other node (by its port: a restarted node has a new id). */
    const logged = (msg: string) => () =>
      Promise.resolve(
        observer
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { msg: string; node?: { port: number; host: string } })
          .filter((line) => line.msg.startsWith(msg) && line.node?.port === port),
      );

    await other.kill('SIGTERM');
    const stopped = other.output();
    expect(stopped).toContain('Received SIGTERM, shutting down');
    // (Redis was lost for real earlier in this file: what matters is what the stop itself logged.)
    expect(stopped.slice(stopped.indexOf('Received SIGTERM'))).not.toMatch(
      /the cluster bus \(Redis\) is lost|lost Redis/,
    );
    for (const line of stopped.trim().split('\n')) expect(() => JSON.parse(line), line).not.toThrow();
    // Within a heartbeat (5 s) of the observer's.
    const left = await eventually(logged('a node left'), (lines) => lines.length === 1, 10_000);
    expect(left[0]?.node?.host).toBe('127.0.0.1');

    await other.restart();
    await eventually(logged('a node joined'), (lines) => lines.length === 1, 10_000);

    // A node killed says nothing: the others see its record expire (15 s), at their next heartbeat.
    await other.kill('SIGKILL');
    await eventually(logged('a node is lost'), (lines) => lines.length === 1, 30_000);
    await other.restart();
  }, 60_000);
});
