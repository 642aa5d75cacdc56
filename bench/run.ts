/**
 * `npm run bench`: throughput of Switchboard's key-authenticated GET against a bare Express handler, RTC token
 * minting, and signaling relay latency against a bare `ws` echo; then chat (bench/chat.ts): message POST
 * throughput and post-to-receive fan-out latency with 100 and 1,000 realtime subscribers, against a raw
 * Express+SQLite insert and a raw `ws` broadcast. `BENCH_ONLY=chat` (or `core`) runs one part.
 *
 * Each server runs in its own child process (bench/servers.ts), one at a time, while this process
 * generates the load: on a 2-core machine, autocannon in the server's process would take CPU from
 * the very code being measured. The output is information, not a test: the exit code is 0 whatever
 * the figures, and non-zero only when the benchmark could not run or its figures would be meaningless.
 * Settings: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_LOGIN_CONNECTIONS, BENCH_LOGIN_DURATION,
 * BENCH_RELAY_MESSAGES, BENCH_ONLY, BENCH_CHAT_SUBSCRIBERS, BENCH_CHAT_MESSAGES, BENCH_CHAT_FANOUT_ROUNDS, BENCH_CHAT_RATE,
 * BENCH_OBSERVABILITY_ROUNDS, BENCH_RESET_ROUNDS, BENCH_CPU_PROF, BENCH_PIN, BENCH_STARTUP_RUNS (see bench/config.ts). Start-up
 * (bench/startup.ts, BENCH_ONLY=startup) runs first, then the single executable (bench/binary.ts, BENCH_ONLY=binary)
 * and the dashboard's size and time to shell (bench/dashboard.ts, BENCH_ONLY=dashboard). Environment reset
 * (bench/reset.ts, BENCH_ONLY=reset) times emptying an environment of 10,000 messages; snapshots (bench/snapshots.ts,
 * BENCH_ONLY=snapshots) saving and restoring one, on both stores; replay (bench/replay.ts, BENCH_ONLY=replay)
 * replaying a recording of 10,000 entries (BENCH_REPLAY_ENTRIES). BENCH_ONLY=sockets10k:
 * BENCH_MANY_SOCKETS (10,000) realtime sockets on one node beside raw `ws` (bench/many-sockets.ts). Last,
 * BENCH_ONLY=postgres: Switchboard on PostgreSQL beside Express + `pg` (bench/postgres.ts, BENCH_POSTGRES_ROUNDS).
 * BENCH_ONLY=metrics: a message POST with 100 online, Prometheus metrics on and off (bench/metrics.ts,
 * BENCH_METRICS_ROUNDS).
 * BENCH_ONLY=recording: the same with the environment recorded and not (bench/recording.ts, BENCH_RECORDING_ROUNDS).
 * BENCH_ONLY=tracing: message POST throughput with OpenTelemetry tracing off and on (bench/tracing.ts).
 * BENCH_ONLY=cluster: two nodes on PostgreSQL with Redis, across-node latency and throughput (bench/cluster.ts,
 * BENCH_CLUSTER_MEMBERS, BENCH_CLUSTER_ROUNDS, BENCH_CLUSTER_MESSAGES, BENCH_CLUSTER_SOCKETS).
 * BENCH_ONLY=sfu: media through the server, one publisher to 10 and 50 subscribers (bench/sfu.ts,
 * BENCH_SFU_SUBSCRIBERS, BENCH_SFU_WINDOW).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBinaryBench } from './binary.js';
import { measureChat, printChatReport } from './chat.js';
import { killAllServers, pinProcesses, spawnServer } from './child.js';
import { runClusterBench } from './cluster.js';
import { type BenchConfig, readConfig } from './config.js';
import { runDashboardBench } from './dashboard.js';
import { type LoadOptions, type Measurement, measure, requireAllOk } from './load.js';
import { runManySocketsBench } from './many-sockets.js';
import { runMetricsBench } from './metrics.js';
import { runObservabilityBench } from './observability.js';
import { runPostgresBench } from './postgres.js';
import { runRecordingBench } from './recording.js';
import { runReplayBench } from './replay.js';
import { formatCpuRatio, formatRatio, formatTable, formatVerdict } from './report.js';
import { runResetBench } from './reset.js';
import { formatLatency, type LatencyResult, measureEcho, measureRelay, measureTokenMinting } from './rtc.js';
import { createCredentials } from './setup.js';
import { runSfuBench } from './sfu.js';
import { runSnapshotBench } from './snapshots.js';
import { runSocketMemoryBench } from './sockets.js';
import { runStartupBench } from './startup.js';
import { runTracingBench } from './tracing.js';
import { runWebhookThroughputBench } from './webhook-throughput.js';
import { runWebhookBench } from './webhooks.js';

const progress = (line: string) => process.stderr.write(`${line}\n`);

async function measurePlain(config: BenchConfig, load: LoadOptions): Promise<Measurement> {
  const server = await spawnServer('plain', [], config.cpuProfDir);
  try {
    progress(`Measuring plain handler (${server.url}) …`);
    return await measure('plain Express handler', { url: `${server.url}/plain`, cpuMicros: server.cpuMicros }, load);
  } finally {
    await server.stop();
  }
}

interface SwitchboardResults {
  keyAuth: Measurement;
  tokens: Measurement;
  relay: LatencyResult;
  session: Measurement;
  healthz: Measurement;
  login: Measurement;
}

async function measureSwitchboard(
  config: BenchConfig,
  load: LoadOptions,
  dataDir: string,
): Promise<SwitchboardResults> {
  const server = await spawnServer('switchboard', [dataDir], config.cpuProfDir);
  try {
    const credentials = await createCredentials(server.url);
    const run = (name: string, path: string, options: LoadOptions) => {
      progress(`Measuring ${name} …`);
      return measure(name, { url: `${server.url}${path}`, cpuMicros: server.cpuMicros }, options);
    };
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    // The headline first, right after its warm-up, before the other scenarios have filled the database.
    const keyAuth = await run('key-auth GET /v1/whoami', '/v1/whoami', {
      ...load,
      headers: bearer(credentials.apiKey),
    });
    progress('Measuring RTC token minting …');
    const tokens = await measureTokenMinting(server, credentials.apiKey, load);
    progress(`Measuring signaling relay latency (${config.relayMessages} messages) …`);
    const relay = await measureRelay(server.url, credentials.apiKey, config.relayMessages);
    const session = await run('session GET /v1/whoami', '/v1/whoami', {
      ...load,
      headers: bearer(credentials.sessionToken),
    });
    // No credential and no /v1 router: what Switchboard's app costs before any route code runs.
    const healthz = await run('GET /healthz (no auth)', '/healthz', load);
    // Last: every login inserts a session row, and scrypt keeps the libuv threads busy.
    const login = await run('POST /v1/auth/login', '/v1/auth/login', {
      ...load,
      connections: config.loginConnections,
      duration: config.loginDuration,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: credentials.email, password: credentials.password }),
    });
    return { keyAuth, tokens, relay, session, healthz, login };
  } finally {
    await server.stop();
  }
}

async function measureWsEcho(config: BenchConfig): Promise<LatencyResult> {
  const server = await spawnServer('ws-echo', [], config.cpuProfDir);
  try {
    progress(`Measuring raw ws echo latency (${config.relayMessages} messages) …`);
    return await measureEcho(server.url, config.relayMessages);
  } finally {
    await server.stop();
  }
}

function printReport(
  plain: Measurement,
  echo: LatencyResult,
  { keyAuth, tokens, relay, session, healthz, login }: SwitchboardResults,
): void {
  console.log('');
  console.log(formatTable([plain, keyAuth, tokens, session, healthz, login]));
  console.log('');
  console.log(formatLatency([echo, relay]));
  console.log(
    `signaling relay / raw ws echo: p50 ×${(relay.p50Ms / echo.p50Ms).toFixed(2)}, p99 ×${(relay.p99Ms / echo.p99Ms).toFixed(2)}`,
  );
  console.log('');
  console.log(formatVerdict(keyAuth, plain));
  console.log(formatCpuRatio(keyAuth, plain));
  console.log(formatRatio('session GET / plain handler', session, plain));
  console.log(formatRatio('GET /healthz / plain handler', healthz, plain));
  console.log(formatRatio('key-auth GET / GET /healthz', keyAuth, healthz));
  // These are for information: a failure is worth a line, not an abort.
  for (const m of [tokens, session, healthz, login]) {
    if (m.non2xx > 0 || m.errors > 0) {
      console.log(`warning: "${m.name}" had ${m.non2xx} non-2xx (${m.statusSummary}) and ${m.errors} errors.`);
    }
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const load: LoadOptions = { connections: config.connections, duration: config.duration, warmup: config.warmup };
  progress(
    `Switchboard benchmark: ${config.connections} connections, ${config.duration} s per scenario after ` +
      `${config.warmup} s warm-up; login ${config.loginConnections} connections, ${config.loginDuration} s; ` +
      `chat ${config.chatSubscribers.join(' and ')} subscribers, ${config.chatMessages} timed messages at ` +
      `${config.chatRate}/s. Parts: ${config.only}. ` +
      `Node ${process.version}, ${availableParallelism()} CPUs${config.pin ? ', pinned (BENCH_PIN)' : ''}.`,
  );
  // After the line above: once pinned, this process sees only its own CPU.
  if (config.pin) pinProcesses();
  const busy = loadavg()[0];
  // Server and load generator already share the cores; anything else running skews req/s.
  if (busy >= 1) progress(`Note: load average ${busy.toFixed(1)} before starting: req/s will be noisy.`);

  // BENCH_ONLY=observability: only what observability recording costs (bench/observability.ts).
  if (config.only === 'observability') {
    await runObservabilityBench(config, load);
    return;
  }
  // BENCH_ONLY=metrics: only what Prometheus metrics cost the message POST with 100 online (bench/metrics.ts).
  if (config.only === 'metrics') {
    await runMetricsBench(config, load);
    return;
  }
  // BENCH_ONLY=recording: only what recording an environment costs that POST (bench/recording.ts).
  if (config.only === 'recording') {
    await runRecordingBench(config, load);
    return;
  }
  // BENCH_ONLY=tracing: only what OpenTelemetry tracing costs (bench/tracing.ts).
  if (config.only === 'tracing') {
    await runTracingBench(config, load);
    return;
  }
  // BENCH_ONLY=startup: start-up time, memory and the CLI (bench/startup.ts); first in a full run, on a quiet machine.
  if (config.only === 'startup' || config.only === 'all') await runStartupBench(config);
  if (config.only === 'startup') return;
  // BENCH_ONLY=binary: the single executable's size and start-up beside node's (bench/binary.ts).
  if (config.only === 'binary' || config.only === 'all') await runBinaryBench(config);
  if (config.only === 'binary') return;
  // BENCH_ONLY=dashboard: the dashboard's first-page JavaScript and time to its shell (bench/dashboard.ts).
  if (config.only === 'dashboard' || config.only === 'all') await runDashboardBench();
  if (config.only === 'dashboard') return;
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-'));
  // Ctrl-C (or a kill) skips `finally`: kill the servers and delete the data ourselves.
  const interrupted = (signal: NodeJS.Signals) => {
    killAllServers();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    // One server at a time: two would share the 2 cores and slow each other down.
    if (config.only === 'all' || config.only === 'core') {
      const plain = await measurePlain(config, load);
      requireAllOk(plain);
      const echo = await measureWsEcho(config);
      const switchboard = await measureSwitchboard(config, load, join(dataDir, 'core'));
      requireAllOk(switchboard.keyAuth);
      printReport(plain, echo, switchboard);
    }
    if (config.only === 'all' || config.only === 'chat') {
      // A data dir of its own: the chat figures must not depend on what the scenarios above stored.
      const chatDir = join(dataDir, 'chat');
      mkdirSync(chatDir);
      printChatReport(await measureChat(config, load, chatDir));
    }
    if (config.only === 'all' || config.only === 'webhooks') await runWebhookBench(config);
    if (config.only === 'all' || config.only === 'webhook-throughput')
      await runWebhookThroughputBench(config.cpuProfDir);
    if (config.only === 'all' || config.only === 'sockets') await runSocketMemoryBench(config);
    if (config.only === 'all' || config.only === 'reset') await runResetBench(config);
    if (config.only === 'all' || config.only === 'snapshots') await runSnapshotBench(config);
    if (config.only === 'all' || config.only === 'replay') await runReplayBench(config);
    if (config.only === 'all' || config.only === 'sockets10k') await runManySocketsBench(config);
    if (config.only === 'all') await runObservabilityBench(config, load);
    if (config.only === 'all') await runTracingBench(config, load);
    if (config.only === 'all') await runRecordingBench(config, load);
    if (config.only === 'all' || config.only === 'postgres') await runPostgresBench(config, load);
    if (config.only === 'all' || config.only === 'cluster') await runClusterBench(config, load);
    if (config.only === 'all' || config.only === 'sfu') await runSfuBench(config);
    if (config.cpuProfDir) console.log(`\nServer CPU profiles (.cpuprofile) written to ${config.cpuProfDir}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// If anything escapes (a bug here), no server process may outlive us.
process.once('exit', killAllServers);

main().catch((err: unknown) => {
  console.error(`\nBenchmark failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
