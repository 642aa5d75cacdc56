/**
 * Environment reset (BENCH_ONLY=reset): staging gets 10,000 messages in 100 conversations, a reaction on every tenth
 * message and a read position per conversation, all through the API; then `POST /v1/projects/{id}/environment/reset`
 * empties it, timed from the request to its answer, and development (holding as much, with webhook deliveries) must
 * still hold all of its data. BENCH_RESET_ROUNDS rounds (default 3), staging filled again before each; the target is
 * 100 ms. Then the same with a webhook endpoint in staging receiving every `message.created`: 10,000 deliveries with
 * their attempts more to delete, for information.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnServer } from './child.js';
import type { BenchConfig } from './config.js';
import { percentile } from './report.js';
import { call, createCredentials } from './setup.js';

const TARGET_MS = 100;
const CONVERSATIONS = 100;
const MESSAGES_PER_CONVERSATION = 100;
/** Message POSTs in flight at once while filling an environment. */
const PARALLEL = 16;

const progress = (line: string) => process.stderr.write(`${line}\n`);

export interface Env {
  name: 'development' | 'staging';
  key: string;
}

async function inParallel<T>(items: T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]);
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

/** `call`, again after a pause when the server answers 503 (a busy database: PostgreSQL on a loaded machine). */
async function callPatiently<T>(...args: Parameters<typeof call>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call<T>(...args);
    } catch (err) {
      if (attempt >= 5 || !String((err as Error).message).includes('answered 503')) throw err;
      await sleep(200 * attempt);
    }
  }
}

/** Conversations, messages, reactions and read positions, all through the API with the environment's key. */
export async function fill(url: string, env: Env): Promise<void> {
  // As many at once as the messages below: 100 at once made PostgreSQL's serializable transactions conflict past
  // their retries (503) on a busy machine.
  const conversations: { id: string }[] = [];
  await inParallel(
    Array.from({ length: CONVERSATIONS }, (_, c) => c),
    async (c) => {
      conversations[c] = await callPatiently<{ id: string }>(
        url,
        'POST',
        '/v1/chat/conversations',
        { name: `bench-${Date.now()}-${c}`, members: [{ userId: 'alice' }, { userId: 'bob' }] },
        env.key,
      );
    },
  );
  const sends = conversations.flatMap((c) => Array.from({ length: MESSAGES_PER_CONVERSATION }, (_, m) => ({ c, m })));
  await inParallel(sends, async ({ c, m }) => {
    const message = await callPatiently<{ id: string }>(
      url,
      'POST',
      `/v1/chat/conversations/${c.id}/messages`,
      { senderId: 'alice', text: `message ${m}` },
      env.key,
    );
    if (m % 10 === 0)
      await callPatiently(
        url,
        'POST',
        `/v1/chat/messages/${message.id}/reactions`,
        { userId: 'bob', emoji: '👍' },
        env.key,
      );
    if (m === MESSAGES_PER_CONVERSATION - 1)
      await callPatiently(url, 'POST', `/v1/chat/messages/${message.id}/read`, { userId: 'bob' }, env.key);
  });
}

/** Until the server has no webhook delivery left to send: attempts in flight would share the reset's CPU. */
async function settle(url: string, projectId: string, token: string, env: Env): Promise<void> {
  for (;;) {
    const diagnostics = await call<{ webhookQueue: { pending: number } }>(
      url,
      'GET',
      `/v1/projects/${projectId}/diagnostics?environment=${env.name}`,
      undefined,
      token,
    );
    if (diagnostics.webhookQueue.pending === 0) return;
    await sleep(100);
  }
}

async function messageCount(url: string, projectId: string, token: string, env: Env): Promise<number> {
  const overview = await call<{ messages: number }>(
    url,
    'GET',
    `/v1/projects/${projectId}/chat/overview?environment=${env.name}`,
    undefined,
    token,
  );
  return overview.messages;
}

export async function runResetBench(config: BenchConfig): Promise<void> {
  const rounds = Math.max(1, Math.round(Number(process.env.BENCH_RESET_ROUNDS ?? 3)));
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end());
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const dataDir = await mkdtemp(join(tmpdir(), 'switchboard-bench-reset-'));
  const server = await spawnServer('switchboard', [dataDir], config.cpuProfDir);
  try {
    const { sessionToken: token, apiKey, projectId } = await createCredentials(server.url);
    const staging = await call<{ key: string }>(
      server.url,
      'POST',
      `/v1/projects/${projectId}/api-keys`,
      { name: 'bench staging', environment: 'staging' },
      token,
    );
    const envs: Env[] = [
      { name: 'development', key: apiKey },
      { name: 'staging', key: staging.key },
    ];
    const subscribe = (env: Env) =>
      call(
        server.url,
        'POST',
        `/v1/projects/${projectId}/webhooks`,
        { url: receiverUrl, environment: env.name, events: ['message.created'] },
        token,
      );
    await subscribe(envs[0]);
    progress('Reset: filling development (10,000 messages and their webhook deliveries) …');
    await fill(server.url, envs[0]);

    /** Fills staging and resets it, `rounds` times; answers the times of the resets. */
    async function measureRounds(what: string): Promise<number[]> {
      const timings: number[] = [];
      for (let round = 0; round < rounds; round++) {
        progress(`Reset: filling staging with ${what}, round ${round + 1} of ${rounds} …`);
        await fill(server.url, envs[1]);
        for (const env of envs) await settle(server.url, projectId, token, env);
        const started = performance.now();
        const reset = await call<{ removed: Record<string, number> }>(
          server.url,
          'POST',
          `/v1/projects/${projectId}/environment/reset?environment=staging`,
          undefined,
          token,
        );
        timings.push(performance.now() - started);
        if (reset.removed.messages !== CONVERSATIONS * MESSAGES_PER_CONVERSATION)
          throw new Error(`The reset removed ${reset.removed.messages} messages, not 10,000.`);
        const kept = await messageCount(server.url, projectId, token, envs[0]);
        if (kept !== CONVERSATIONS * MESSAGES_PER_CONVERSATION)
          throw new Error(`Development holds ${kept} messages after staging's reset, not 10,000.`);
      }
      return timings.sort((a, b) => a - b);
    }

    const messagesOnly = await measureRounds('10,000 messages');
    await subscribe(envs[1]);
    const withDeliveries = await measureRounds('10,000 messages and their webhook deliveries');
    const line = (what: string, sorted: number[], target?: number) =>
      `${what}: median ${percentile(sorted, 50).toFixed(1)} ms, slowest ${sorted[sorted.length - 1].toFixed(1)} ms` +
      (target ? ` (target < ${target} ms: ${sorted[sorted.length - 1] < target ? 'met' : 'NOT met'})` : '');
    console.log('');
    console.log(`Environment reset, beside an environment holding as much; ${rounds} rounds each:`);
    console.log(
      line('  10,000 messages (100 conversations, 1,000 reactions, 100 read positions)', messagesOnly, TARGET_MS),
    );
    console.log(line('  the same with a webhook endpoint: + 10,000 deliveries and their attempts', withDeliveries));
  } finally {
    await server.stop();
    receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
