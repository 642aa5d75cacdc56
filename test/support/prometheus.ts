/**
 * A real Prometheus for the metrics tests, never a stand-in: Debian's `prometheus` (`.ci/run` installs it), a child
 * process on a free loopback port with its storage in a temporary folder, scraping every second, with the
 * configuration and the alert rules of docs/deployment/ (only its targets and intervals replaced).
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StartedChild, startChild, waitUntilReady } from './child-process.js';
import { freePort } from './wait.js';

export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';
const DEPLOYMENT = fileURLToPath(new URL('../../docs/deployment/', import.meta.url));
export const SCRAPE_CONFIG = join(DEPLOYMENT, 'prometheus.yml');
export const ALERT_RULES = join(DEPLOYMENT, 'switchboard-alerts.yml');

/** Why the tests that need Prometheus cannot run here, or undefined when they can. */
export function prometheusMissing(): string | undefined {
  return existsSync(PROMETHEUS) && existsSync(PROMTOOL)
    ? undefined
    : `Prometheus is not installed at ${PROMETHEUS} (apt-get install prometheus; .ci/run does)`;
}

export interface PrometheusServer {
  url: string;
  /** An instant query's result vector (`/api/v1/query`). */
  query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  stop(): Promise<void>;
}

/** docs/deployment/prometheus.yml, scraping `targets` (host:port) every second. */
function configFor(targets: string[]): string {
  const documented = readFileSync(SCRAPE_CONFIG, 'utf8');
  const config = documented
    .replace(/scrape_interval: \S+/, 'scrape_interval: 1s')
    .replace(/evaluation_interval: \S+/, 'evaluation_interval: 1s')
    .replace(/targets: \[.*\]/, `targets: [${targets.map((t) => `'${t}'`).join(', ')}]`);
  if (config === documented) throw new Error('docs/deployment/prometheus.yml changed: the test could not adapt it');
  return config;
}

export async function startPrometheus(targets: string[]): Promise<PrometheusServer> {
  const missing = prometheusMissing();
  if (missing) throw new Error(missing);
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-prometheus-'));
  writeFileSync(join(folder, 'prometheus.yml'), configFor(targets));
  copyFileSync(ALERT_RULES, join(folder, 'switchboard-alerts.yml'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let server: StartedChild | undefined;
  try {
    server = startChild(
      'prometheus',
      PROMETHEUS,
      [
        `--config.file=${join(folder, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(folder, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { cwd: folder },
    );
    const started = server;
    await waitUntilReady(started, `prometheus on port ${port}`, async () => (await fetch(`${url}/-/ready`)).ok);
  } catch (err) {
    await server?.stop('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
    throw err;
  }
  const running = server;
  return {
    url,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
      const body = (await res.json()) as { status: string; error?: string; data: { result: never[] } };
      if (body.status !== 'success') throw new Error(`Prometheus refused ${promql}: ${body.error}`);
      return body.data.result;
    },
    async stop() {
      try {
        await running.stop('SIGTERM');
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
