/**
 * Environment snapshots (BENCH_ONLY=snapshots), on SQLite and on PostgreSQL: staging gets 10,000 messages in 100
 * conversations, a reaction on every tenth and a read position per conversation (as bench/reset.ts fills it), then
 * BENCH_SNAPSHOT_ROUNDS rounds (default 3) of: save it (`POST …/environment/snapshots`, `replace: true`), send one
 * message more, restore it (`POST …/snapshots/{name}/restore`), each timed from the request to its answer, and check
 * that staging holds its 10,000 messages again. The target is 1 s for each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresMissing, startPostgres } from '../test/support/postgres.js';
import { spawnServer } from './child.js';
import type { BenchConfig } from './config.js';
import { percentile } from './report.js';
import { type Env, fill } from './reset.js';
import { call, createCredentials } from './setup.js';

const TARGET_MS = 1_000;
const MESSAGES = 10_000;

const progress = (line: string) => process.stderr.write(`${line}\n`);

interface Timings {
  save: number[];
  restore: number[];
  sizeBytes: number;
}

async function measureStore(config: BenchConfig, store: string, args: string[], rounds: number): Promise<Timings> {
  const server = await spawnServer(
    store === 'PostgreSQL' ? 'switchboard-postgres' : 'switchboard',
    args,
    config.cpuProfDir,
  );
  try {
    const { sessionToken: token, projectId } = await createCredentials(server.url);
    const { key } = await call<{ key: string }>(
      server.url,
      'POST',
      `/v1/projects/${projectId}/api-keys`,
      { name: 'bench staging', environment: 'staging' },
      token,
    );
    const staging: Env = { name: 'staging', key };
    progress(`Snapshots (${store}): filling staging with 10,000 messages …`);
    await fill(server.url, staging);
    const snapshots = `/v1/projects/${projectId}/environment/snapshots`;
    const timings: Timings = { save: [], restore: [], sizeBytes: 0 };
    const timed = async <T>(into: number[], request: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      const answer = await request();
      into.push(performance.now() - started);
      return answer;
    };
    for (let round = 0; round < rounds; round++) {
      progress(`Snapshots (${store}): round ${round + 1} of ${rounds} …`);
      const saved = await timed(timings.save, () =>
        call<{ sizeBytes: number; counts: { messages: number } }>(
          server.url,
          'POST',
          `${snapshots}?environment=staging`,
          { name: 'bench', replace: true },
          token,
        ),
      );
      if (saved.counts.messages !== MESSAGES) throw new Error(`The snapshot holds ${saved.counts.messages} messages.`);
      timings.sizeBytes = saved.sizeBytes;
      const [conversation] = (
        await call<{ data: { id: string }[] }>(server.url, 'GET', '/v1/chat/conversations?limit=1', undefined, key)
      ).data;
      await call(
        server.url,
        'POST',
        `/v1/chat/conversations/${conversation.id}/messages`,
        { senderId: 'alice', text: 'one more' },
        key,
      );
      const restored = await timed(timings.restore, () =>
        call<{ removed: { messages: number }; restored: { messages: number } }>(
          server.url,
          'POST',
          `${snapshots}/bench/restore?environment=staging`,
          undefined,
          token,
        ),
      );
      if (restored.removed.messages !== MESSAGES + 1 || restored.restored.messages !== MESSAGES)
        throw new Error(`The restore removed ${restored.removed.messages} and restored ${restored.restored.messages}.`);
    }
    timings.save.sort((a, b) => a - b);
    timings.restore.sort((a, b) => a - b);
    return timings;
  } finally {
    await server.stop();
  }
}

export async function runSnapshotBench(config: BenchConfig): Promise<void> {
  const rounds = Math.max(1, Math.round(Number(process.env.BENCH_SNAPSHOT_ROUNDS ?? 3)));
  const results: [string, Timings][] = [];
  const sqliteDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-snapshots-'));
  try {
    results.push(['SQLite', await measureStore(config, 'SQLite', [sqliteDir], rounds)]);
  } finally {
    rmSync(sqliteDir, { recursive: true, force: true });
  }
  const missing = postgresMissing();
  if (missing) progress(`Snapshots on PostgreSQL skipped: ${missing}.`);
  else {
    const postgres = await startPostgres();
    const stopPostgres = () => postgres.stop();
    process.once('exit', stopPostgres);
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-snapshots-pg-'));
    try {
      const url = postgres.url(postgres.createDatabase());
      results.push(['PostgreSQL', await measureStore(config, 'PostgreSQL', [dataDir, url], rounds)]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await postgres.stop();
      process.removeListener('exit', stopPostgres);
    }
  }
  const line = (what: string, sorted: number[]) =>
    `${what} median ${percentile(sorted, 50).toFixed(0)} ms, slowest ${sorted[sorted.length - 1].toFixed(0)} ms ` +
    `(target < ${TARGET_MS} ms: ${sorted[sorted.length - 1] < TARGET_MS ? 'met' : 'NOT met'})`;
  console.log('');
  console.log(`Environment snapshots of 10,000 messages (1,000 reactions, 100 read positions); ${rounds} rounds each:`);
  for (const [store, timings] of results) {
    console.log(`  ${store}: snapshot ${(timings.sizeBytes / 1024).toFixed(0)} KB compressed`);
    console.log(line('    save:   ', timings.save));
    console.log(line('    restore:', timings.restore));
  }
}
