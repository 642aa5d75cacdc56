/**
 * What one feature costs the message POST, the way bench/observability.ts, tracing.ts and metrics.ts measure it: the
 * same load against a server without the feature and one with it, in off-on, then on-off order (ABBA: a machine that
 * slows down or speeds up during the run weighs on both sides alike instead of always on the second one), each
 * measurement on a server of its own; then the table, the overhead in req/s and in server CPU per request, and the goal.
 */
import type { ServerProcess } from './child.js';
import type { LoadOptions, Measurement } from './load.js';
import { measure, requireAllOk } from './load.js';
import { formatTable } from './report.js';
import { call, createCredentials } from './setup.js';

export const progress = (line: string) => process.stderr.write(`${line}\n`);

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Several runs of one scenario as one: their means, and their counts added up. */
export function combine(name: string, runs: Measurement[]): Measurement {
  return {
    ...runs[0],
    name,
    requestsPerSecond: mean(runs.map((m) => m.requestsPerSecond)),
    p50: mean(runs.map((m) => m.p50)),
    p99: mean(runs.map((m) => m.p99)),
    responses: runs.reduce((a, m) => a + m.responses, 0),
    non2xx: runs.reduce((a, m) => a + m.non2xx, 0),
    errors: runs.reduce((a, m) => a + m.errors, 0),
    statusSummary: runs
      .map((m) => m.statusSummary)
      .filter(Boolean)
      .join('; '),
    serverCpuPerRequest: mean(runs.map((m) => m.serverCpuPerRequest)),
  };
}

/** `POST /v1/chat/conversations/{id}/messages` with an API key, into a conversation made for it on `server`. */
export async function measureMessagePost(server: ServerProcess, name: string, load: LoadOptions): Promise<Measurement> {
  const { apiKey } = await createCredentials(server.url);
  const conversation = await call<{ id: string }>(
    server.url,
    'POST',
    '/v1/chat/conversations',
    { name: 'bench', members: [{ userId: 'alice' }] },
    apiKey,
  );
  progress(`Measuring ${name} …`);
  return measure(
    name,
    { url: `${server.url}/v1/chat/conversations/${conversation.id}/messages`, cpuMicros: server.cpuMicros },
    {
      ...load,
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ senderId: 'alice', text: 'hello from the benchmark' }),
    },
  );
}

export interface OffOnComparison {
  /** What is compared, as the printed lines name it: `observability`, `tracing`, `metrics`. */
  feature: string;
  /** The scenario, as the table's combined rows name it: `POST message`. */
  scenario: string;
  rounds: number;
  /** The goal: the feature costs at most this share. */
  maxOverhead: number;
  measureOnce(on: boolean): Promise<Measurement>;
  /** Lines printed after the table (what the feature did meanwhile). */
  notes?: () => string[];
}

export async function compareOffOn(comparison: OffOnComparison): Promise<void> {
  const { feature, scenario, rounds, maxOverhead } = comparison;
  const off: Measurement[] = [];
  const on: Measurement[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const enabled of order) (enabled ? on : off).push(await comparison.measureOnce(enabled));
  }
  const offAll = combine(`${scenario}, ${feature} off (mean of ${rounds})`, off);
  const onAll = combine(`${scenario}, ${feature} on (mean of ${rounds})`, on);
  for (const m of [offAll, onAll]) requireAllOk(m);
  const overhead = 1 - onAll.requestsPerSecond / offAll.requestsPerSecond;
  const cpuOverhead = onAll.serverCpuPerRequest / offAll.serverCpuPerRequest - 1;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const verdict = (x: number) => (x <= maxOverhead ? 'PASS' : 'ABOVE GOAL');
  console.log('');
  console.log(formatTable([...off, ...on, offAll, onAll]));
  console.log('');
  for (const line of comparison.notes?.() ?? []) console.log(line);
  console.log(`${feature} on / off, ${scenario}: req/s overhead ${pct(overhead)}`);
  console.log(`  same, from server CPU µs/req: overhead ${pct(cpuOverhead)}`);
  console.log(`goal: ≤ ${pct(maxOverhead)} overhead   ${verdict(overhead)} (req/s), ${verdict(cpuOverhead)} (CPU)`);
}
