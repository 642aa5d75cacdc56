// Three `switchboard serve` nodes on one PostgreSQL database with Redis between them, behind HAProxy (round robin,
// nothing sticky): what a client of one node sees of what was done through another.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ConsoleClient } from '../../sdk/index.js';
import { runCli } from '../support/cli.js';
import { clusterMissing, everyNodeReady } from '../support/cluster.js';
import { CLUSTER_ADMIN_TOKEN, useClusterProject } from '../support/cluster-project.js';
import { createConversation, createKey, mintChatToken, registerUser, sendMessage } from '../support/factories.js';
import { client } from '../support/http.js';
import { watchEvents } from '../support/live-events.js';
import { connectRealtime } from '../support/socket-client.js';
import { TEST_SECRET_KEY } from '../support/test-store.js';
import { eventually } from '../support/wait.js';

const missing = clusterMissing(inject('postgresUrl'));
if (missing) console.warn(`Skipping the tests across nodes: ${missing}`);

describe.skipIf(missing !== undefined)('three nodes behind HAProxy with Redis between them', () => {
  const project = useClusterProject();
  const home = mkdtempSync(join(tmpdir(), 'switchboard-cluster-cli-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('pushes messages posted through one node to members connected to the others, in the order they were posted', async () => {
    const conversation = await createConversation(client(project.cluster.proxy.url), project.key, {
      members: ['alice', 'bob'],
    });
    const alice = await project.connectRealtimeOn(0, 'alice');
    const bob = await project.connectRealtimeOn(1, 'bob');
    const poster = client(project.cluster.nodes[2].url);
    const texts = Array.from({ length: 20 }, (_, i) => `message ${i}`);
    for (const text of texts) await sendMessage(poster, project.key, conversation.id, { text, senderId: 'carol' });

    for (const socket of [alice, bob]) {
      await eventually(
        async () => socket.received.filter((frame) => frame.type === 'message.created'),
        (frames) => frames.length === texts.length,
        5_000,
      );
      const received = socket.received
        .filter((frame) => frame.type === 'message.created' && frame.conversationId === conversation.id)
        .map((frame) => frame.data.message.text);
      expect(received).toEqual(texts);
    }
  });

  it("streams every node's events to the dashboard's live events of any node", async () => {
    const abort = new AbortController();
    const console = new ConsoleClient({ baseUrl: project.cluster.nodes[0].url, token: project.owner.token });
    const watched = watchEvents(await console.observability.events(project.projectId, { signal: abort.signal }));
    try {
      const conversation = await createConversation(client(project.cluster.nodes[1].url), project.key, {
        members: ['frank'],
      });
      const frank = await project.connectRealtimeOn(2, 'frank');
      await sendMessage(client(project.cluster.nodes[1].url), project.key, conversation.id, {
        text: 'seen',
        senderId: 'frank',
      });
      await watched.waitFor('message.created');
      const opened = await watched.waitFor('connection.opened', (e) => e.data.connection.identity === 'frank');
      expect(opened.data.connection.kind).toBe('realtime');
      frank.close();
      await watched.waitFor('connection.closed', (e) => e.data.connection.identity === 'frank');
    } finally {
      abort.abort();
    }
  });

  it('stops a revoked API key on every node within a second', async () => {
    const revocable = await createKey(
      client(project.cluster.proxy.url),
      project.projectId,
      project.owner,
      'development',
    );
    // Every node has used the key, and keeps it in memory.
    for (const node of project.cluster.nodes) {
      const res = await client(node.url).get('/v1/rooms', { token: revocable.key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const revoked = await client(project.cluster.nodes[0].url).delete(
      `/v1/projects/${project.projectId}/api-keys/${revocable.id}`,
      {
        token: project.owner.token,
      },
    );
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(204);
    const revokedAt = Date.now();
    for (const node of project.cluster.nodes.slice(1)) {
      await eventually(
        async () => (await client(node.url).get('/v1/rooms', { token: revocable.key })).status,
        (status) => status === 401,
        1_000,
      );
    }
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });

  it('lists the live nodes to the admin token and to an owner, and `switchboard status` shows them', async () => {
    const api = client(project.cluster.proxy.url);
    // Someone who owns no project is refused; the project's owner sees the same list as the admin token.
    const stranger = await registerUser(api);
    expect((await api.get('/v1/server/nodes', { token: stranger.token })).status).toBe(403);
    const asOwner = await api.get('/v1/server/nodes', { token: project.owner.token });
    expect(asOwner.status, JSON.stringify(asOwner.body)).toBe(200);
    expect(asOwner.body.data).toHaveLength(3);
    const listed = await api.get('/v1/server/nodes', { token: CLUSTER_ADMIN_TOKEN });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.bus).toBe('up');
    expect(listed.body.data).toHaveLength(3);
    expect(listed.body.data.filter((node: { self: boolean }) => node.self)).toHaveLength(1);
    for (const node of listed.body.data) {
      expect(node).toMatchObject({
        id: expect.stringMatching(/^node_/),
        version: expect.any(String),
        host: '127.0.0.1',
      });
      expect(project.cluster.nodes.map((n) => n.address)).toContain(`${node.host}:${node.port}`);
      expect(Date.parse(node.startedAt)).not.toBeNaN();
      expect(Date.parse(node.heartbeatAt)).toBeGreaterThanOrEqual(Date.parse(node.startedAt));
    }

    const status = await runCli(['status', '--url', project.cluster.proxy.url], {
      home,
      env: { SWITCHBOARD_ADMIN_TOKEN: CLUSTER_ADMIN_TOKEN },
    });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('Nodes:          3 live (connected through Redis)');
    for (const node of listed.body.data) expect(status.stdout).toContain(`${node.host}:${node.port}  ${node.id}`);
    // The counts say how fresh they are: the answering node's now, the others' as of their last heartbeat.
    expect(status.stdout).toMatch(/signaling as of now {2}\(answered\)/);
    expect(status.stdout).toMatch(/signaling as of \d+ s ago$/m);
  });

  it('says which node holds each connection', async () => {
    const nodes = (await client(project.cluster.proxy.url).get('/v1/server/nodes', { token: CLUSTER_ADMIN_TOKEN })).body
      .data as {
      id: string;
    }[];
    for (const index of [0, 2]) {
      const userId = `held-by-${index}`;
      await project.connectRealtimeOn(index, userId);
      const self = await client(project.cluster.nodes[index].url).get('/v1/server/nodes', {
        token: CLUSTER_ADMIN_TOKEN,
      });
      const nodeId = self.body.data.find((node: { self: boolean }) => node.self).id;
      expect(nodes.map((node) => node.id)).toContain(nodeId);
      // Recorded by the node that holds it, read through any.
      const listed = await eventually(
        async () =>
          (
            await client(project.cluster.proxy.url).get(`/v1/projects/${project.projectId}/connections?kind=realtime`, {
              token: project.owner.token,
            })
          ).body.data as { identity: string; nodeId: string | null }[],
        (data) => data.some((c) => c.identity === userId),
      );
      expect(listed.find((c) => c.identity === userId)?.nodeId).toBe(nodeId);
    }
  });

  it('refuses to start a server without Redis beside them, saying why', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-no-redis-'));
    try {
      const refused = await runCli(['serve', '--port', '0', '--data-dir', dataDir], {
        home,
        env: { SWITCHBOARD_DATABASE_URL: project.cluster.databaseUrl, SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY },
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Another Switchboard server is running on this database');
      expect(refused.stderr).toContain('SWITCHBOARD_REDIS_URL');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps writing while Redis is lost, closes and refuses realtime sockets with 1013, and recovers by itself', async () => {
    const conversation = await createConversation(client(project.cluster.proxy.url), project.key, {
      members: ['dana', 'erin'],
    });
    const dana = await project.connectRealtimeOn(0, 'dana');
    const readyz = async (url: string) => (await fetch(`${url}/readyz`)).json() as Promise<Record<string, unknown>>;
    expect(await readyz(project.cluster.nodes[0].url)).toMatchObject({
      status: 'ready',
      realtime: { bus: 'redis', status: 'up' },
    });

    await project.cluster.redis.pause();
    try {
      expect(await dana.closed).toEqual({ code: 1013, reason: expect.stringContaining('realtime degraded') });
      expect(await readyz(project.cluster.nodes[0].url)).toMatchObject({
        status: 'degraded',
        store: { status: 'up' },
        realtime: { bus: 'redis', status: 'degraded' },
      });
      // The API goes on: the message is in PostgreSQL.
      await sendMessage(client(project.cluster.nodes[1].url), project.key, conversation.id, {
        text: 'while lost',
        senderId: 'erin',
      });
      const refused = connectRealtime(
        project.cluster.nodes[0].url,
        await mintChatToken(client(project.cluster.nodes[0].url), project.key, 'dana'),
      );
      expect((await refused.closed).code).toBe(1013);
    } finally {
      await project.cluster.redis.resume();
    }

    await everyNodeReady(project.cluster);
    // Back: the client catches up on what it missed, and hears what comes next from another node.
    const back = await project.connectRealtimeOn(0, 'dana');
    const missed = await client(project.cluster.nodes[2].url).get(
      `/v1/chat/conversations/${conversation.id}/messages`,
      {
        token: project.key,
      },
    );
    expect(missed.body.data.map((m: { text: string }) => m.text)).toContain('while lost');
    await sendMessage(client(project.cluster.nodes[2].url), project.key, conversation.id, {
      text: 'after',
      senderId: 'erin',
    });
    expect((await back.next('message.created')).data.message.text).toBe('after');
  }, 60_000);
});
