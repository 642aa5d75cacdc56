// Several servers on one PostgreSQL database, as a team runs them behind a load balancer: every webhook delivery goes
// out once, from the server that claimed it in the store; a server that dies leaves its claims to another.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Clock, type RunningServer, startServer } from '../../server/index.js';
import { DELIVERY_LEASE_MS, ENDPOINT_CONCURRENCY } from '../../server/webhooks/policy.js';
import {
  createConversation,
  createKey,
  createProject,
  registerUser,
  registerWebhook,
  sendMessage,
  type TestUser,
} from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { type PostgresServer, postgresMissing, startPostgres } from '../support/postgres.js';
import { type RedisServer, redisMissing, startRedis } from '../support/redis.js';
import { manualClock } from '../support/server.js';
import { withTestDatabase } from '../support/test-database.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { envelopeOf } from '../support/webhooks.js';

const missing = postgresMissing() ?? redisMissing();
if (missing) console.warn(`Skipping the webhook tests of several servers on one database: ${missing}`);

const SECRET_KEY = 'the-secret-key-of-the-webhook-nodes-test-0123456789';
const SECOND = 1000;

interface Node {
  server: RunningServer;
  api: Client;
  dataDir: string;
}

/**
 * `count` servers on the PostgreSQL database `databaseUrl`, each with a data folder of its own and all with the same
 * secret key, Redis and clock: what a deployment of several nodes starts. One after another: the first writes the
 * key's fingerprint into the empty database.
 */
async function startNodes(count: number, databaseUrl: string, redisUrl: string, clock: Clock): Promise<Node[]> {
  const nodes: Node[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), `switchboard-node-${i}-`));
      const server = await startServer({
        dataDir,
        databaseUrl,
        secretKey: SECRET_KEY,
        redisUrl,
        clock,
        port: 0,
        host: '127.0.0.1',
        logger: pino({ level: 'silent' }),
      }).catch((err: unknown) => {
        rmSync(dataDir, { recursive: true, force: true });
        throw err;
      });
      nodes.push({ server, api: client(server.url), dataDir });
    }
  } catch (err) {
    await stopNodes(nodes);
    throw err;
  }
  return nodes;
}

async function stopNodes(nodes: Node[]): Promise<void> {
  await Promise.all(nodes.map((node) => node.server.close()));
  for (const node of nodes) rmSync(node.dataDir, { recursive: true, force: true });
}

/** Every node sends what is due by the clock, all at once; resolves when none has an attempt in flight. */
const runDueEverywhere = (nodes: Node[]) => Promise.all(nodes.map((node) => node.server.runDueWebhooks()));

describe.skipIf(missing !== undefined)('webhooks from three servers on one PostgreSQL database', () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let nodes: Node[] = [];
  let receiver: WebhookReceiver | undefined;
  let databaseUrl: string;
  const clock = manualClock();

  beforeAll(async () => {
    postgres = await startPostgres();
    redis = await startRedis();
  }, 60_000);
  afterAll(async () => {
    postgres?.stop();
    await redis?.stop();
  });
  afterEach(async () => {
    await stopNodes(nodes);
    nodes = [];
    await receiver?.close();
    receiver = undefined;
  });

  /** Three nodes on a new database, a receiver, and an endpoint for `message.created` registered on the first. */
  async function setUp() {
    databaseUrl = postgres.url(postgres.createDatabase());
    nodes = await startNodes(3, databaseUrl, redis.url, clock);
    receiver = await startReceiver();
    const api = nodes[0].api;
    const owner = await registerUser(api);
    const project = await createProject(api, owner);
    // Registered on one node: the others hear of it on the bus (and drop what they cached of the scope's endpoints).
    const webhook = await registerWebhook(api, project.id, owner, { url: receiver.url, events: ['message.created'] });
    const key = (await createKey(api, project.id, owner, 'development')).key;
    const conversation = await createConversation(api, key);
    /** `count` messages, sent through the nodes in turn (each emits its own events and queues their deliveries). */
    const send = (count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          sendMessage(nodes[i % nodes.length].api, key, conversation.id, { text: `message ${i}`, senderId: 'alice' }),
        ),
      );
    return { receiver, owner, project, webhook, send };
  }

  const deliveriesOf = async (owner: TestUser, projectId: string, webhookId: string) => {
    const res = await nodes[0].api.get(
      `/v1/projects/${projectId}/webhooks/${webhookId}/deliveries?environment=development&limit=100`,
      { token: owner.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: string; eventId: string; status: string; attempts: number }[];
  };

  it('sends each of 30 messages to the endpoint exactly once, at most 4 attempts at a time from each server', async () => {
    const { receiver, owner, project, webhook, send } = await setUp();
    // Replies wait until the gate opens: meanwhile every server runs passes over the same due deliveries.
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    let open = 0;
    let most = 0;
    receiver.reply(async () => {
      open++;
      most = Math.max(most, open);
      await gate;
      await sleep(5);
      open--;
      return { status: 200 };
    });

    const messages = await send(30);
    const draining = runDueEverywhere(nodes);
    // The endpoint's lanes are full, and no server adds to its own, however often each looks (each polls every second).
    await receiver.waitForRequests(ENDPOINT_CONCURRENCY);
    await sleep(1500);
    expect(receiver.requests.length).toBeLessThanOrEqual(ENDPOINT_CONCURRENCY * nodes.length);
    openGate();
    await draining;

    await expect
      .poll(async () => (await deliveriesOf(owner, project.id, webhook.id)).map((d) => d.status), { timeout: 10_000 })
      .toEqual(Array(30).fill('SUCCEEDED'));
    // Another second of polls by every server sends nothing more.
    await sleep(1200);
    expect(receiver.requests).toHaveLength(30);
    const eventIds = receiver.requests.map((request) => String(request.headers['service-event-id']));
    expect(new Set(eventIds).size).toBe(30);
    expect(receiver.requests.map((request) => envelopeOf(request).data.message.id).sort()).toEqual(
      messages.map((message) => message.id).sort(),
    );
    const deliveries = await deliveriesOf(owner, project.id, webhook.id);
    expect(deliveries.map((d) => d.eventId).sort()).toEqual([...eventIds].sort());
    expect(deliveries.every((d) => d.attempts === 1)).toBe(true);
    expect(most).toBeLessThanOrEqual(ENDPOINT_CONCURRENCY * nodes.length);
    // Every claim ended with its attempt.
    const leased = await withTestDatabase({ dataDir: nodes[0].dataDir, databaseUrl }, (db) =>
      db.query('SELECT id FROM webhook_deliveries WHERE lease_owner IS NOT NULL OR lease_expires_at IS NOT NULL'),
    );
    expect(leased).toEqual([]);
  }, 40_000);

  it('sends a delivery claimed by a server that died from another server once its lease runs out, with the same event id', async () => {
    const { receiver, owner, project, webhook, send } = await setUp();
    receiver.reply((_request, index) => ({ status: index === 0 ? 503 : 200 }));
    await send(1);
    await runDueEverywhere(nodes);
    expect(receiver.requests).toHaveLength(1);
    const [delivery] = await deliveriesOf(owner, project.id, webhook.id);
    expect(delivery).toMatchObject({ status: 'PENDING', attempts: 1 });

    // When its retry comes due, a server claims it and dies before it has sent it: its claim stays in the store.
    clock.advance(10 * SECOND);
    await withTestDatabase({ dataDir: nodes[0].dataDir, databaseUrl }, (db) =>
      db.run('UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ? WHERE id = ?', [
        'node_DIEDMIDATTEMPT',
        clock.now() + DELIVERY_LEASE_MS,
        delivery.id,
      ]),
    );
    await runDueEverywhere(nodes);
    expect(receiver.requests).toHaveLength(1);
    clock.advance(DELIVERY_LEASE_MS - 1);
    await runDueEverywhere(nodes);
    expect(receiver.requests).toHaveLength(1);

    // The lease has run out: one of the living servers sends it, once.
    clock.advance(1);
    await runDueEverywhere(nodes);
    await sleep(1200);
    expect(receiver.requests).toHaveLength(2);
    const [first, second] = receiver.requests;
    expect(second.headers['service-event-id']).toBe(delivery.eventId);
    expect(second.rawBody.equals(first.rawBody)).toBe(true);
    expect((await deliveriesOf(owner, project.id, webhook.id))[0]).toMatchObject({
      id: delivery.id,
      status: 'SUCCEEDED',
      attempts: 2,
    });
    const [row] = await withTestDatabase({ dataDir: nodes[0].dataDir, databaseUrl }, (db) =>
      db.query('SELECT lease_owner, lease_expires_at FROM webhook_deliveries WHERE id = ?', [delivery.id]),
    );
    expect(row).toEqual({ lease_owner: null, lease_expires_at: null });
  }, 40_000);

  it('counts the failures of every server in one run: 50 disable the endpoint, after exactly 50 attempts', async () => {
    const { receiver, owner, project, webhook, send } = await setUp();
    receiver.reply({ status: 500 });
    await send(50);
    await runDueEverywhere(nodes);
    await expect.poll(() => receiver.requests.length, { timeout: 10_000 }).toBe(50);
    const endpoint = () =>
      nodes[1].api.get(`/v1/projects/${project.id}/webhooks/${webhook.id}?environment=development`, {
        token: owner.token,
      });
    // The last attempt is counted once its answer is back, after the receiver saw it: a count stuck at 49 still fails.
    await expect.poll(async () => (await endpoint()).body.consecutiveFailures, { timeout: 10_000 }).toBe(50);
    expect((await endpoint()).body).toMatchObject({
      enabled: false,
      consecutiveFailures: 50,
      disabledReason: 'Disabled after 50 consecutive failed attempts.',
    });
    const deliveries = await deliveriesOf(owner, project.id, webhook.id);
    expect(deliveries).toHaveLength(50);
    expect(deliveries.every((d) => d.status === 'FAILED' && d.attempts === 1)).toBe(true);
    expect(new Set(receiver.requests.map((request) => request.headers['service-event-id'])).size).toBe(50);
  }, 40_000);
});
