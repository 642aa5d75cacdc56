/** Where the raw chat baselines (bench/servers.ts) take a message POST; its body is `{text}`. */
export const RAW_MESSAGES_PATH = '/messages';
/** The raw chat baselines' plain GET, the floor of the REST probe of the many-sockets part (bench/many-sockets.ts). */
export const RAW_PING_PATH = '/ping';
/** Where the `plain-postgres` floor (bench/servers.ts) answers its GET doing one query. */
export const PLAIN_QUERY_PATH = '/plain-query';

/** Benchmark settings, from environment variables so that `npm run bench` needs no arguments. */
export interface BenchConfig {
  /** Seconds measured per scenario (BENCH_DURATION, default 5). */
  duration: number;
  /** Seconds of unmeasured load before each scenario (BENCH_WARMUP, default 1; 0 turns it off). */
  warmup: number;
  /** Concurrent connections for the GET scenarios, baseline included (BENCH_CONNECTIONS, default 10). */
  connections: number;
  /**
   * Connections for the login scenario (BENCH_LOGIN_CONNECTIONS, default 4). scrypt runs on libuv's
   * 4 threads: more connections only queue, which lengthens latency without adding throughput.
   */
  loginConnections: number;
  /** Seconds measured for login (BENCH_LOGIN_DURATION, default: BENCH_DURATION). */
  loginDuration: number;
  /** Messages timed one after another for the relay and echo latencies (BENCH_RELAY_MESSAGES, default 2000). */
  relayMessages: number;
  /**
   * Which parts run (BENCH_ONLY): `core` only the first scenarios (key-auth GET, tokens, login, signaling
   * relay), `chat` only the chat fan-out benchmark, `observability` only the recording-overhead comparison; `metrics` only what Prometheus metrics cost
   * a message POST with 100 online (bench/metrics.ts); `recording` only what recording an environment costs it
   * (bench/recording.ts); `tracing` only what tracing costs (bench/tracing.ts); `dashboard` only the dashboard's bundle size and time to shell;
   * `sockets10k` only BENCH_MANY_SOCKETS realtime sockets on one node beside raw `ws`; `postgres` only Switchboard on
   * PostgreSQL beside raw Express + `pg` (bench/postgres.ts); `webhook-throughput` only what a subscribed endpoint costs
   * the message POST and how fast deliveries go out, on both stores (bench/webhook-throughput.ts); `snapshots` only saving
   * and restoring an environment of 10,000 messages on both stores (bench/snapshots.ts); `replay` only replaying a
   * recording of 10,000 entries (bench/replay.ts); `sfu` only media through the server, one publisher to 10 and 50
   * subscribers (bench/sfu.ts); unset or `all`, every part.
   */
  only:
    | 'all'
    | 'binary'
    | 'chat'
    | 'cluster'
    | 'core'
    | 'dashboard'
    | 'metrics'
    | 'observability'
    | 'postgres'
    | 'replay'
    | 'recording'
    | 'reset'
    | 'sfu'
    | 'snapshots'
    | 'sockets'
    | 'sockets10k'
    | 'startup'
    | 'tracing'
    | 'webhooks'
    | 'webhook-throughput';
  /** Realtime subscriber counts of the chat benchmark, ascending (BENCH_CHAT_SUBSCRIBERS, default `100,1000`). */
  chatSubscribers: number[];
  /** Messages timed for the post-to-receive latency at each subscriber count (BENCH_CHAT_MESSAGES, default 100). */
  chatMessages: number;
  /**
   * At most this many timed messages per second (BENCH_CHAT_RATE, default 20); each is also sent only once the
   * previous one reached every subscriber.
   */
  chatRate: number;
  /** When set, server processes run with `--cpu-prof` and write their profiles there (BENCH_CPU_PROF). */
  cpuProfDir: string | undefined;
  /**
   * BENCH_PIN=1: server processes on CPU 0, the load generator and the chat subscribers on CPU 1 (Linux, taskset):
   * steadier figures, and a server that cannot borrow the other core for its garbage collector or kernel work.
   */
  pin: boolean;
  /** Whole-process runs per start-up and CLI figure, of which the median is shown (BENCH_STARTUP_RUNS, default 15). */
  startupRuns: number;
  /** Messages per second of the webhook latency part (BENCH_WEBHOOK_RATE, default 200). */
  webhookRate: number;
  /** Realtime and signaling sockets each of the socket memory part (BENCH_IDLE_SOCKETS, default 1000). */
  idleSockets: number;
  /** Realtime sockets, all members of one conversation, of the many-sockets part (BENCH_MANY_SOCKETS, default 10000). */
  manySockets: number;
  /** Messages timed to all of them (BENCH_MANY_MESSAGES, default 100), after 20 warm-up ones. */
  manyMessages: number;
  /** Handshakes in flight at once while they open (BENCH_OPEN_CONCURRENCY, default 16). */
  openConcurrency: number;
  /**
   * BENCH_MAX_CONNECTIONS: the many-sockets part starts Switchboard with this `--max-connections` instead of the
   * default (10,000, which today counts upgraded sockets too: issue 30).
   */
  maxConnections: number | undefined;
  /** Subscriber counts of the SFU part, ascending (BENCH_SFU_SUBSCRIBERS, default `10,50`). */
  sfuSubscribers: number[];
  /** Seconds measured at each subscriber count of the SFU part (BENCH_SFU_WINDOW, default 10). */
  sfuWindow: number;
}

function readNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number ≥ ${min} (got "${raw}").`);
  return value;
}

const BENCH_PARTS: readonly BenchConfig['only'][] = [
  'all',
  'binary',
  'chat',
  'cluster',
  'core',
  'dashboard',
  'metrics',
  'observability',
  'postgres',
  'replay',
  'recording',
  'reset',
  'sfu',
  'snapshots',
  'sockets',
  'sockets10k',
  'startup',
  'tracing',
  'webhooks',
  'webhook-throughput',
];

function readOnly(): BenchConfig['only'] {
  const raw = process.env.BENCH_ONLY || 'all';
  const part = BENCH_PARTS.find((name) => name === raw);
  if (!part) throw new Error(`BENCH_ONLY must be one of ${BENCH_PARTS.join(', ')} (got "${raw}").`);
  return part;
}

function readSubscribers(): number[] {
  const raw = process.env.BENCH_CHAT_SUBSCRIBERS || '100,1000';
  const counts = raw.split(',').map((part) => Number(part.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 5000)) {
    throw new Error(`BENCH_CHAT_SUBSCRIBERS must be whole numbers from 1 to 5000, comma-separated (got "${raw}").`);
  }
  return [...new Set(counts)].sort((a, b) => a - b);
}

function readSfuSubscribers(): number[] {
  const raw = process.env.BENCH_SFU_SUBSCRIBERS || '10,50';
  const counts = raw.split(',').map((part) => Number(part.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 100)) {
    throw new Error(`BENCH_SFU_SUBSCRIBERS must be whole numbers from 1 to 100, comma-separated (got "${raw}").`);
  }
  return [...new Set(counts)].sort((a, b) => a - b);
}

export function readConfig(): BenchConfig {
  const duration = readNumber('BENCH_DURATION', 5, 1);
  return {
    only: readOnly(),
    chatSubscribers: readSubscribers(),
    chatMessages: Math.round(readNumber('BENCH_CHAT_MESSAGES', 100, 10)),
    chatRate: readNumber('BENCH_CHAT_RATE', 20, 1),
    duration,
    warmup: readNumber('BENCH_WARMUP', 1, 0),
    connections: Math.round(readNumber('BENCH_CONNECTIONS', 10, 1)),
    loginConnections: Math.round(readNumber('BENCH_LOGIN_CONNECTIONS', 4, 1)),
    loginDuration: readNumber('BENCH_LOGIN_DURATION', duration, 1),
    relayMessages: Math.round(readNumber('BENCH_RELAY_MESSAGES', 2000, 10)),
    cpuProfDir: process.env.BENCH_CPU_PROF || undefined,
    pin: process.env.BENCH_PIN === '1',
    startupRuns: Math.round(readNumber('BENCH_STARTUP_RUNS', 15, 1)),
    webhookRate: readNumber('BENCH_WEBHOOK_RATE', 200, 1),
    idleSockets: Math.round(readNumber('BENCH_IDLE_SOCKETS', 1000, 10)),
    manySockets: Math.round(readNumber('BENCH_MANY_SOCKETS', 10_000, 100)),
    manyMessages: Math.round(readNumber('BENCH_MANY_MESSAGES', 100, 5)),
    openConcurrency: Math.round(readNumber('BENCH_OPEN_CONCURRENCY', 16, 1)),
    maxConnections: process.env.BENCH_MAX_CONNECTIONS
      ? Math.round(readNumber('BENCH_MAX_CONNECTIONS', 0, 1))
      : undefined,
    sfuSubscribers: readSfuSubscribers(),
    sfuWindow: readNumber('BENCH_SFU_WINDOW', 10, 2),
  };
}
