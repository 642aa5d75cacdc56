// A trace across two servers on one PostgreSQL database with Redis between them: the event a request emits on one node
// carries its trace context over the bus, and the other node's realtime fan-out joins the request's trace.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/index.js';
import { createConversation, createKey, createProject, mintChatToken, registerUser } from '../support/factories.js';
import { client } from '../support/http.js';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';
import { type PostgresServer, postgresMissing, startPostgres } from '../support/postgres.js';
import { type RedisServer, redisMissing, startRedis } from '../support/redis.js';
import { connectRealtime } from '../support/socket-client.js';
import { eventually } from '../support/wait.js';

const missing = postgresMissing() ?? redisMissing();
if (missing) console.warn(`Skipping the trace across two nodes: ${missing}`);

const SECRET_KEY = 'the-secret-key-of-the-tracing-nodes-test-0123456789';
const CONSUMER_KIND = 5;
const PRODUCER_KIND = 4;

describe.skipIf(missing !== undefined)('a trace across two nodes', () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let collector: OtlpReceiver;
  const nodes: { server: RunningServer; dataDir: string }[] = [];

  beforeAll(async () => {
    postgres = await startPostgres();
    redis = await startRedis();
    collector = await startOtlpReceiver();
    const databaseUrl = postgres.url(postgres.createDatabase());
    // One after another: the first writes the key's fingerprint into the empty database.
    for (const name of ['first', 'second']) {
      const dataDir = mkdtempSync(join(tmpdir(), `switchboard-traced-${name}-`));
      const server = await startServer({
        dataDir,
        databaseUrl,
        secretKey: SECRET_KEY,
        redisUrl: redis.url,
        port: 0,
        host: '127.0.0.1',
        logger: pino({ level: 'silent' }),
        otelEnvironment: {
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_SERVICE_NAME: `switchboard-${name}`,
          OTEL_BSP_SCHEDULE_DELAY: '20',
          // The first sends protobuf (the default), the second JSON: one trace, whichever each node sends.
          ...(name === 'second' && { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
        },
      });
      nodes.push({ server, dataDir });
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.server.close()));
    for (const node of nodes) rmSync(node.dataDir, { recursive: true, force: true });
    await collector?.close();
    postgres?.stop();
    await redis?.stop();
  });

  it('joins the fan-out on the other node to the trace of the request that posted the message', async () => {
    const [first, second] = nodes.map((node) => client(node.server.url));
    const owner = await registerUser(first);
    const project = await createProject(first, owner);
    const key = (await createKey(first, project.id, owner, 'development')).key;
    const conversation = await createConversation(first, key, { members: ['alice'] });
    // Alice listens on the second node; the message is posted to the first.
    const alice = connectRealtime(nodes[1].server.url, await mintChatToken(second, key, 'alice'));
    await alice.next('connected');
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const res = await fetch(`${nodes[0].server.url}/v1/chat/conversations/${conversation.id}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-b7ad6b7169203331-01`,
      },
      body: JSON.stringify({ text: 'across the bus', senderId: 'alice' }),
    });
    expect(res.status).toBe(201);
    await alice.next('message.created');
    alice.close();

    const spans = await eventually(
      async () => collector.spans.filter((span) => span.traceId === traceId),
      (found) => found.some((span) => span.name === 'realtime fan-out'),
    );
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const fanOut = spans.find((span) => span.name === 'realtime fan-out');
    const processed = fanOut && byId.get(fanOut.parentSpanId);
    const published = processed && byId.get(processed.parentSpanId);
    const request = published && byId.get(published.parentSpanId);
    expect(fanOut?.resource['service.name']).toBe('switchboard-second');
    expect(processed).toMatchObject({
      name: 'process switchboard:events',
      kind: CONSUMER_KIND,
      attributes: { 'messaging.system': 'redis', 'switchboard.event': 'chat' },
      resource: { 'service.name': 'switchboard-second' },
    });
    expect(published).toMatchObject({
      name: 'publish switchboard:events',
      kind: PRODUCER_KIND,
      resource: { 'service.name': 'switchboard-first' },
    });
    expect(request).toMatchObject({
      name: 'POST /v1/chat/conversations/{room}/messages',
      parentSpanId: 'b7ad6b7169203331',
      resource: { 'service.name': 'switchboard-first' },
    });
    expect([...collector.encodings].sort()).toEqual(['http/json', 'http/protobuf']);
  });
});
