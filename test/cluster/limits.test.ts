// The abuse limits of three nodes behind HAProxy (round robin): counted once for the cluster in Redis, so that a
// client spreading its attempts over the nodes gets no more than it would from one; per node while Redis is lost.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { LOGIN_FAILURES_PER_ADDRESS } from '../../server/auth/attempt-limits.js';
import { clusterMissing, everyNodeReady } from '../support/cluster.js';
import { useClusterProject } from '../support/cluster-project.js';
import { createKey, expectError, PASSWORD, registerUser, type TestUser } from '../support/factories.js';
import { SERVED_BY } from '../support/haproxy.js';
import { type ApiResponse, type Client, client } from '../support/http.js';

const missing = clusterMissing(inject('postgresUrl'));
if (missing) console.warn(`Skipping the limits across nodes: ${missing}`);

/** Requests a minute per API key on every node (local mode has no key limit unless given one). */
const KEY_LIMIT = 30;
const MINUTE = 60_000;
const FAILURES = LOGIN_FAILURES_PER_ADDRESS.limit;

/**
 * Waits for the next fixed window of the limit when less than `needed` ms are left of this one (the nodes' clocks are
 * this machine's): a test that fills a limit must do so within one window, or the sliding estimate lets one more in.
 */
async function roomInWindow(windowMs: number, needed = 30_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needed) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

function expectRateLimited(res: ApiResponse): number {
  expectError(res, 429, 'SERVICE_RATE_LIMITED');
  const seconds = Number(res.headers.get('retry-after'));
  expect(seconds).toBeGreaterThanOrEqual(1);
  return seconds;
}

const login = (api: Client, email: string, password: string) =>
  api.post('/v1/auth/login', { body: { email, password } });

describe.skipIf(missing !== undefined)('abuse limits across three nodes behind HAProxy', () => {
  const project = useClusterProject({ env: { SWITCHBOARD_KEY_RATE_LIMIT: String(KEY_LIMIT) }, withKey: false });
  let proxy: Client;
  let nodes: Client[];

  beforeAll(() => {
    proxy = client(project.cluster.proxy.url);
    nodes = project.cluster.nodes.map((node) => client(node.url));
  });

  /** Fails `FAILURES` sign-ins of a new account through `api`, then answers the account. */
  async function failSignIns(through: (i: number) => Client): Promise<TestUser> {
    const user = await registerUser(proxy);
    for (let i = 0; i < FAILURES; i++)
      expectError(await login(through(i), user.email, 'wrong password'), 401, 'SERVICE_UNAUTHENTICATED');
    return user;
  }

  /** Spends a new key's limit through the proxy: each request passes, with what remains of the cluster's count. */
  async function spendKeyThroughProxy(): Promise<string> {
    const { key } = await createKey(proxy, project.projectId, project.owner, 'development');
    const remaining: string[] = [];
    const servedBy = new Set<string>();
    for (let i = 0; i < KEY_LIMIT; i++) {
      const res = await proxy.get('/v1/rooms', { token: key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      remaining.push(res.headers.get('ratelimit-remaining') ?? '');
      servedBy.add(res.headers.get(SERVED_BY) ?? '');
    }
    expect(servedBy.size).toBe(3);
    expect(remaining).toEqual(Array.from({ length: KEY_LIMIT }, (_, i) => String(KEY_LIMIT - 1 - i)));
    return key;
  }

  /** `request` is refused with 429 by every node, with about the same Retry-After (the counts are the same). */
  async function refusedByEveryNode(request: (api: Client) => Promise<ApiResponse>): Promise<void> {
    const waits: number[] = [];
    for (const api of nodes) waits.push(expectRateLimited(await request(api)));
    expect(Math.max(...waits) - Math.min(...waits)).toBeLessThanOrEqual(2);
  }

  it('throttles failed sign-ins spread over the nodes after as many as one node allows', async () => {
    await roomInWindow(LOGIN_FAILURES_PER_ADDRESS.windowMs);
    const user = await failSignIns(() => proxy);
    expectRateLimited(await login(proxy, user.email, PASSWORD));
    await refusedByEveryNode((api) => login(api, user.email, PASSWORD));
  }, 90_000);

  it('holds the per-key limit in total: the request past it is refused whichever node answers', async () => {
    await roomInWindow(MINUTE);
    const key = await spendKeyThroughProxy();
    const refused = await proxy.get('/v1/rooms', { token: key });
    expectRateLimited(refused);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    await refusedByEveryNode((api) => api.get('/v1/rooms', { token: key }));
  }, 90_000);

  it('holds the limits per node while Redis is lost, never answering 500, and across nodes again once it is back', async () => {
    const keys = await Promise.all([1, 2].map(() => createKey(proxy, project.projectId, project.owner, 'development')));
    await roomInWindow(LOGIN_FAILURES_PER_ADDRESS.windowMs, 45_000);
    await roomInWindow(MINUTE, 45_000);

    await project.cluster.redis.pause();
    try {
      // Node 0 holds both limits by itself…
      const user = await failSignIns(() => nodes[0]);
      expectRateLimited(await login(nodes[0], user.email, PASSWORD));
      for (let i = 0; i < KEY_LIMIT; i++) {
        const res = await nodes[0].get('/v1/rooms', { token: keys[0].key });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      expectRateLimited(await nodes[0].get('/v1/rooms', { token: keys[0].key }));
      // …and the others, which have not seen those, count their own.
      for (const api of nodes.slice(1)) {
        expect((await login(api, user.email, PASSWORD)).status).toBe(200);
        expect((await api.get('/v1/rooms', { token: keys[0].key })).status).toBe(200);
      }
      // Through the proxy every request is answered.
      for (let i = 0; i < 6; i++) expect((await proxy.get('/v1/rooms', { token: keys[1].key })).status).toBe(200);
    } finally {
      await project.cluster.redis.resume();
    }
    await everyNodeReady(project.cluster);

    // Counted across the nodes again.
    await roomInWindow(LOGIN_FAILURES_PER_ADDRESS.windowMs);
    const user = await failSignIns(() => proxy);
    await refusedByEveryNode((api) => login(api, user.email, PASSWORD));
    await roomInWindow(MINUTE);
    const key = await spendKeyThroughProxy();
    await refusedByEveryNode((api) => api.get('/v1/rooms', { token: key }));
    for (const node of project.cluster.nodes) {
      expect(node.output()).toContain('the limits cannot reach Redis');
      expect(node.output()).toContain('the limits reach Redis again');
    }
  }, 180_000);
});
