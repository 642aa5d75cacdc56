// Prometheus metrics (`--metrics-port`): a real Prometheus (Debian's) scrapes a running server with the
// documented configuration and alert rules (docs/deployment/), and promtool checks what the server exposes.
import { execFile, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  mintChatToken,
  projectWithKeys,
  registerWebhook,
  sendMessage,
} from '../support/factories.js';
import { client } from '../support/http.js';
import {
  ALERT_RULES,
  PROMTOOL,
  type PrometheusServer,
  prometheusMissing,
  startPrometheus,
} from '../support/prometheus.js';
import { makeDataDir, startTestServer, type TestServer } from '../support/server.js';
import { connectRealtime, type SocketClient } from '../support/socket-client.js';
import { eventually } from '../support/wait.js';
import { startReceiver } from '../support/webhook-receiver.js';

const missing = prometheusMissing();
if (missing) console.warn(`Skipping the Prometheus tests: ${missing}`);
const DASHBOARD = fileURLToPath(new URL('../../docs/deployment/grafana-dashboard.json', import.meta.url));
/** Prometheus scrapes every second: a figure reaches its queries within a few. */
const SCRAPED_WITHIN_MS = 15_000;

/** promtool reading the exposition on its standard input: its exit code and what it said. */
function promtoolCheckMetrics(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(PROMTOOL, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}

/** Every label value of the exposition's samples. */
function labelValues(exposition: string): string[] {
  return [...exposition.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => m[2]);
}

describe.skipIf(missing !== undefined)('Prometheus metrics', () => {
  let server: TestServer;
  let prometheus: PrometheusServer;
  const sockets: SocketClient[] = [];
  const scrape = async (url = server.metricsUrl as string) => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return res.text();
  };
  const value = async (promql: string) => {
    const [sample] = await prometheus.query(promql);
    return sample ? Number(sample.value[1]) : undefined;
  };

  beforeAll(async () => {
    // One WebSocket at most: the second is refused at the server's limit, and counted.
    server = await startTestServer({ metrics: { port: 0 }, security: { webSockets: { max: 1 } } });
    prometheus = await startPrometheus([new URL(server.metricsUrl as string).host]);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await prometheus?.stop();
    await server?.dispose();
  });

  it('serves the text exposition on its own listener, which promtool accepts; the API port has no /metrics', async () => {
    const api = client(server.url);
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect((await api.get('/metrics')).status).toBe(404);
    const res = await fetch(server.metricsUrl as string);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE switchboard_http_request_duration_seconds histogram');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toMatch(/^switchboard_store_up\{store="(sqlite|postgres)"\} 1$/m);
    expect(text).toMatch(/^switchboard_bus_state\{state="alone"\} 1$/m);
    expect((await fetch(server.metricsUrl?.replace(/\/metrics$/, '/v1/projects') as string)).status).toBe(404);
    const checked = await promtoolCheckMetrics(text);
    expect(checked, checked.output).toEqual({ code: 0, output: '' });
  });

  it('is scraped by Prometheus: the target is up, and the message counter rises as messages are posted', async () => {
    await eventually(
      () => value('up{job="switchboard"}'),
      (up) => up === 1,
      SCRAPED_WITHIN_MS,
    );
    const { keys } = await projectWithKeys(client(server.url));
    const api = client(server.url);
    const conversation = await createConversation(api, keys.development, { members: ['alice', 'bob'] });
    const alice = connectRealtime(server.url, await mintChatToken(api, keys.development, 'alice'));
    sockets.push(alice);
    await alice.next('connected');
    const before = (await value('sum(switchboard_chat_messages_total)')) ?? 0;
    for (const text of ['one', 'two', 'three'])
      await sendMessage(api, keys.development, conversation.id, { text, senderId: 'bob' });
    await alice.next('message.created');
    await eventually(
      () => value('sum(switchboard_chat_messages_total)'),
      (count) => count === before + 3,
      SCRAPED_WITHIN_MS,
    );
    await eventually(
      () => value('switchboard_websockets_open{kind="realtime",environment="development"}'),
      (open) => open === 1,
      SCRAPED_WITHIN_MS,
    );
    expect(await value('switchboard_realtime_frames_sent_total')).toBeGreaterThan(0);
  });

  it('labels requests by route template, sockets by kind and environment, refusals by limit: never an id', async () => {
    const api = client(server.url);
    const { keys, project } = await projectWithKeys(api);
    const conversation = await createConversation(api, keys.staging, { members: ['carol'] });
    const message = await sendMessage(api, keys.staging, conversation.id, { text: 'hello', senderId: 'carol' });
    // The server's one WebSocket is the earlier test's: this one is refused with 1013.
    const refused = connectRealtime(server.url, await mintChatToken(api, keys.staging, 'carol'));
    sockets.push(refused);
    expect((await refused.closed).code).toBe(1013);
    const text = await eventually(
      () => scrape(),
      (t) => /^switchboard_websockets_refused_total\{limit="server"\} 1$/m.test(t),
    );
    expect(text).toMatch(
      /^switchboard_http_request_duration_seconds_count\{route="\/v1\/chat\/conversations\/\{room\}\/messages",method="POST",status="201"\} [1-9]/m,
    );
    expect(text).toMatch(/^switchboard_chat_messages_total\{environment="staging"\} 1$/m);
    expect(text).toMatch(
      /^switchboard_http_request_duration_seconds_count\{route="unmatched",method="GET",status="404"\}/m,
    );
    const values = labelValues(text);
    for (const id of [project.id, conversation.id, message.id]) expect(values.join('\n')).not.toContain(id);
    // Switchboard's ids: a prefix, then a ULID-like body.
    expect(values.filter((v) => /\b[a-z]{2,4}_[0-9A-Z]{20,}/.test(v))).toEqual([]);
  });

  it('counts webhook attempts by outcome, the time to a first attempt, and the deliveries still pending', async () => {
    const api = client(server.url);
    const { keys, project, owner } = await projectWithKeys(api);
    const [answering, failing] = await Promise.all([startReceiver(), startReceiver()]);
    failing.reply({ status: 500 });
    try {
      for (const receiver of [answering, failing])
        await registerWebhook(api, project.id, owner, {
          url: receiver.url,
          environment: 'production',
          events: ['message.created'],
        });
      const conversation = await createConversation(api, keys.production, { members: ['dave'] });
      await sendMessage(api, keys.production, conversation.id, { text: 'hook', senderId: 'dave' });
      await Promise.all([answering.waitForRequests(1), failing.waitForRequests(1)]);
      const text = await eventually(
        () => scrape(),
        (t) => /^switchboard_webhook_attempts_total\{outcome="failed"\} 1$/m.test(t),
      );
      expect(text).toMatch(/^switchboard_webhook_attempts_total\{outcome="succeeded"\} 1$/m);
      expect(text).toMatch(/^switchboard_webhook_first_attempt_latency_seconds_count 2$/m);
      // The failed one waits for its retry.
      expect(text).toMatch(/^switchboard_webhook_deliveries_pending 1$/m);
    } finally {
      await Promise.all([answering.close(), failing.close()]);
    }
  });

  it('counts per server: a second server in the same process starts from nothing', async () => {
    const other = await startTestServer({ metrics: { port: 0 } });
    try {
      const text = await scrape(other.metricsUrl);
      expect(text).not.toContain('switchboard_chat_messages_total{');
      expect(text).not.toMatch(/route="\/v1\/chat\/conversations\/\{room\}\/messages"/);
      expect(await scrape()).toMatch(/^switchboard_chat_messages_total\{environment="development"\} [1-9]/m);
    } finally {
      await other.dispose();
    }
  });

  it('a metrics port in use fails the start, and leaves the data folder free for the next', async () => {
    const taken = Number(new URL(server.metricsUrl as string).port);
    const dataDir = makeDataDir();
    try {
      await expect(startTestServer({ dataDir, metrics: { port: taken } })).rejects.toThrow(/EADDRINUSE/);
      const next = await startTestServer({ dataDir });
      expect(next.metricsUrl).toBeUndefined();
      await next.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("the documented alert rules pass promtool and load; the Grafana dashboard's queries name metrics the server has", async () => {
    const { stdout } = await promisify(execFile)(PROMTOOL, ['check', 'rules', ALERT_RULES]);
    expect(stdout).toContain('SUCCESS: 5 rules found');
    const rules = (await fetch(`${prometheus.url}/api/v1/rules`).then((res) => res.json())) as {
      data: { groups: { rules: { name: string }[] }[] };
    };
    const loaded = rules.data.groups.flatMap((g) => g.rules);
    expect(loaded.map((r) => r.name)).toEqual([
      'SwitchboardDown',
      'SwitchboardBusLost',
      'SwitchboardStoreDown',
      'SwitchboardWebhookQueueGrowing',
      'SwitchboardWebSocketsRefused',
    ]);
    const exposition = await scrape();
    const served = new Set([...exposition.matchAll(/^# TYPE (\w+) (\w+)$/gm)].map((m) => m[1]));
    const named = (text: string) =>
      [...text.matchAll(/\b((?:switchboard|nodejs|process)_\w+)/g)].map((m) =>
        m[1].replace(/_(bucket|count|sum)$/, ''),
      );
    const dashboard = readFileSync(DASHBOARD, 'utf8');
    const used = new Set([...named(dashboard), ...named(readFileSync(ALERT_RULES, 'utf8'))]);
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !served.has(name))).toEqual([]);
    // Every panel's query is one Prometheus accepts.
    const panels = JSON.parse(dashboard).panels as { targets?: { expr: string }[] }[];
    for (const target of panels.flatMap((p) => p.targets ?? []))
      await prometheus.query(target.expr.replaceAll('$__rate_interval', '1m').replaceAll('$instance', '.*'));
  });
});
