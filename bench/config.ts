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
  /** When set, server processes run with `--cpu-prof` and write their profiles there (BENCH_CPU_PROF). */
  cpuProfDir: string | undefined;
}

function readNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number ≥ ${min} (got "${raw}").`);
  return value;
}

export function readConfig(): BenchConfig {
  const duration = readNumber('BENCH_DURATION', 5, 1);
  return {
    duration,
    warmup: readNumber('BENCH_WARMUP', 1, 0),
    connections: Math.round(readNumber('BENCH_CONNECTIONS', 10, 1)),
    loginConnections: Math.round(readNumber('BENCH_LOGIN_CONNECTIONS', 4, 1)),
    loginDuration: readNumber('BENCH_LOGIN_DURATION', duration, 1),
    relayMessages: Math.round(readNumber('BENCH_RELAY_MESSAGES', 2000, 10)),
    cpuProfDir: process.env.BENCH_CPU_PROF || undefined,
  };
}
