import autocannon from 'autocannon';

export interface LoadOptions {
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of the same load before, not measured: JIT, prepared statements and sockets settle first. */
  warmup: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** What is under load: a URL, and a way to read its server process's CPU time (microseconds). */
export interface Target {
  url: string;
  cpuMicros(): Promise<number>;
}

export interface Measurement {
  name: string;
  connections: number;
  requestsPerSecond: number;
  /** Milliseconds (autocannon records whole milliseconds). */
  p50: number;
  /** Milliseconds. */
  p99: number;
  /** Responses counted (2xx and others). */
  responses: number;
  non2xx: number;
  /** Connection errors and timeouts: requests that got no response at all. */
  errors: number;
  /** e.g. `401×12, 500×1`, for the report when something was not 2xx. */
  statusSummary: string;
  /**
   * Server CPU time per response, in microseconds. Unlike req/s it barely depends on what else
   * the machine is doing, so it is the steadier figure when the 2 cores are shared.
   */
  serverCpuPerRequest: number;
}

async function run(url: string, options: LoadOptions, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: options.connections,
    duration,
    // Logins take hundreds of milliseconds each under load and queue: leave room before a timeout.
    timeout: 30,
    method: options.method ?? 'GET',
    // autocannon spreads these over its defaults: a key present as `undefined` would erase them.
    ...(options.headers && { headers: options.headers }),
    ...(options.body !== undefined && { body: options.body }),
  });
}

/** Warms up, then runs autocannon against the target and keeps the figures the report needs. */
export async function measure(name: string, target: Target, options: LoadOptions): Promise<Measurement> {
  // A separate run rather than autocannon's `warmup` option, so that CPU is sampled after it.
  if (options.warmup > 0) await run(target.url, options, options.warmup);
  const cpuBefore = await target.cpuMicros();
  const result = await run(target.url, options, options.duration);
  const cpuAfter = await target.cpuMicros();

  const statusSummary = Object.entries(result.statusCodeStats)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${code}×${count}`)
    .join(', ');
  return {
    name,
    connections: options.connections,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    responses: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    statusSummary,
    serverCpuPerRequest: result.requests.total > 0 ? (cpuAfter - cpuBefore) / result.requests.total : Number.NaN,
  };
}

/** A ratio over failed requests compares nothing: stop rather than print it. */
export function requireAllOk(m: Measurement): void {
  if (m.non2xx > 0 || m.errors > 0) {
    throw new Error(
      `"${m.name}" had ${m.non2xx} non-2xx responses (${m.statusSummary || 'none'}) and ${m.errors} ` +
        'connection errors: its figures would be meaningless.',
    );
  }
}
