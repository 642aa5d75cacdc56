// OpenTelemetry traces (docs/deployment.md#tracing): exported with OTLP/HTTP (protobuf, the default) to a collector of
// the test's own, as the standard OTEL_* variables ask; none without them.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, createKey, createProject, registerUser, registerWebhook } from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { type ExportedSpan, type OtlpReceiver, parseTraceparent, startOtlpReceiver } from '../support/otlp-receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { eventually } from '../support/wait.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const SERVER_KIND = 2;
const CLIENT_KIND = 3;

let collector: OtlpReceiver;
let hooks: WebhookReceiver;
let server: TestServer;
let api: Client;
let key: string;
const logLines: { msg: string; reqId?: string; traceId?: string; route?: string }[] = [];

beforeAll(async () => {
  collector = await startOtlpReceiver();
  hooks = await startReceiver();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logLines.push(JSON.parse(line));
      done();
    },
  });
  server = await startTestServer({
    logger: pino({ level: 'info' }, sink),
    otelEnvironment: {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'switchboard-under-test',
      // Exported within milliseconds, so that the test reads them soon.
      OTEL_BSP_SCHEDULE_DELAY: '20',
    },
  });
  api = client(server.url);
  const owner = await registerUser(api);
  const projectId = (await createProject(api, owner)).id;
  key = (await createKey(api, projectId, owner, 'development')).key;
  await registerWebhook(api, projectId, owner, { url: hooks.url, events: ['message.created'] });
});
afterAll(async () => {
  await server?.dispose();
  await hooks?.close();
  await collector?.close();
});

const spansOf = (traceId: string) => collector.spans.filter((span) => span.traceId === traceId);
const byName = (spans: ExportedSpan[], name: string) => spans.filter((span) => span.name === name);

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('puts a message POST, its store transaction and the webhook attempt it caused in one trace, which the receiver joins', async () => {
    const conversation = await createConversation(api, key);
    const before = hooks.requests.length;
    const posted = await api.post(`/v1/chat/conversations/${conversation.id}/messages`, {
      token: key,
      body: { text: 'a secret plan', senderId: 'alice' },
    });
    expect(posted.status).toBe(201);
    await server.runDueWebhooks();
    const [delivered] = (await hooks.waitForRequests(before + 1)).slice(before);
    const received = parseTraceparent(delivered.headers.traceparent);

    const spans = await eventually(
      async () => spansOf(received.traceId),
      (found) =>
        found.some((span) => span.name === 'webhook attempt') && found.some((span) => span.kind === SERVER_KIND),
    );
    const [request] = byName(spans, 'POST /v1/chat/conversations/{room}/messages');
    expect(request).toMatchObject({
      kind: SERVER_KIND,
      parentSpanId: '',
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/v1/chat/conversations/{room}/messages',
        'http.response.status_code': 201,
      },
      resource: { 'service.name': 'switchboard-under-test' },
    });
    // The message's write: a statement of its own on PostgreSQL, in a transaction on SQLite.
    const [write] = spans.filter((span) => span.name === 'INSERT messages' || span.name === 'transaction');
    expect(write).toMatchObject({ kind: CLIENT_KIND, parentSpanId: request.spanId });
    expect(write.attributes['db.system.name']).toBe(server.databaseUrl ? 'postgresql' : 'sqlite');
    const [attempt] = byName(spans, 'webhook attempt');
    expect(attempt).toMatchObject({
      kind: CLIENT_KIND,
      parentSpanId: request.spanId,
      attributes: { 'switchboard.event_type': 'message.created', 'http.response.status_code': 200 },
    });
    // The receiver's request is the attempt's child.
    expect(received.spanId).toBe(attempt.spanId);
    // No message text in any attribute.
    expect(JSON.stringify(spans)).not.toContain('a secret plan');
    // The request's log line carries its trace beside its request id.
    const requestId = posted.headers.get('x-request-id');
    const line = await eventually(
      async () => logLines.find((one) => one.msg === 'request' && one.reqId === requestId),
      (found) => found !== undefined,
    );
    expect(line?.traceId).toBe(received.traceId);
    expect([...collector.encodings]).toEqual(['http/protobuf']);
  });

  it('makes an incoming traceparent the parent of the request span', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const res = await fetch(`${server.url}/v1/chat/conversations`, {
      headers: { authorization: `Bearer ${key}`, traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(res.status).toBe(200);
    const [span] = await eventually(
      async () => spansOf(traceId).filter((one) => one.kind === SERVER_KIND),
      (found) => found.length > 0,
    );
    expect(span).toMatchObject({ name: 'GET /v1/chat/conversations', parentSpanId: parentId });
  });
});

describe('without OTEL_* variables', () => {
  it('exports nothing, whatever the process environment holds, and webhooks carry no traceparent', async () => {
    const silent = await startOtlpReceiver();
    const receiver = await startReceiver();
    // A library reads no OTEL_* variable of its process: `serve` passes its own (otelEnvironment).
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = silent.url;
    const plain = await startTestServer();
    try {
      const plainApi = client(plain.url);
      const owner = await registerUser(plainApi);
      const projectId = (await createProject(plainApi, owner)).id;
      const plainKey = (await createKey(plainApi, projectId, owner, 'development')).key;
      await registerWebhook(plainApi, projectId, owner, { url: receiver.url, events: ['message.created'] });
      const conversation = await createConversation(plainApi, plainKey);
      await plainApi.post(`/v1/chat/conversations/${conversation.id}/messages`, {
        token: plainKey,
        body: { text: 'hello', senderId: 'alice' },
      });
      await plain.runDueWebhooks();
      const [delivered] = await receiver.waitForRequests(1);
      expect(delivered.headers.traceparent).toBeUndefined();
    } finally {
      // Closing a server that traced would export what it still held: nothing arrives from this one.
      await plain.dispose();
      await receiver.close();
      delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    }
    expect(silent.exports()).toBe(0);
    await silent.close();
  });
});
