import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../support/http.js';
import { makeDataDir } from '../support/server.js';

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs `switchboard serve` from source and resolves with the URL from its first line. */
async function serve(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/index.ts', 'serve', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line; output: ${output}`)), 15_000);
    child.stdout?.on('data', () => {
      const match = /Switchboard listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { child, url, output: () => output };
}

describe('switchboard serve', () => {
  it('prints the URL it listens on, serves the API, docs and health, and stops cleanly on SIGTERM', async () => {
    const dataDir = makeDataDir();
    dirs.push(dataDir);
    const { child, url } = await serve(['--port', '0', '--data-dir', dataDir]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const api = client(url);
    expect((await api.get('/healthz')).body).toMatchObject({ status: 'ok', mode: 'local' });
    expect((await api.get('/openapi.json')).body.openapi).toBe('3.1.0');
    expect((await api.get('/docs')).status).toBe(200);
    const home = await api.get('/');
    // The dashboard (or, in a checkout that has not built it yet, how to build it): see test/api/dashboard.test.ts.
    expect(home.headers.get('content-type')).toContain('text/html');
    expect(home.body).toMatch(/<title>Switchboard/);
    const exit = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exit;
    expect(code).toBe(0);
  });

  it('takes its settings from SWITCHBOARD_* variables, flags winning over them', async () => {
    const dataDir = makeDataDir();
    dirs.push(dataDir);
    const { url, output } = await serve(['--mode', 'production'], {
      SWITCHBOARD_PORT: '0',
      SWITCHBOARD_DATA_DIR: dataDir,
      SWITCHBOARD_MODE: 'local',
      SWITCHBOARD_METRICS_PORT: '0',
    });
    expect((await client(url).get('/healthz')).body.mode).toBe('production');
    // Prometheus metrics on a listener of their own, on 127.0.0.1 by default.
    const metricsUrl = /Metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(output())?.[1];
    expect(metricsUrl, output()).toBeDefined();
    expect(await (await fetch(metricsUrl as string)).text()).toContain(
      'switchboard_http_request_duration_seconds_count',
    );
  });

  it('refuses a bad setting with exit code 2 and a message', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/index.ts', 'serve', '--mode', 'staging'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toMatch(/--mode must be "local" or "production"/);
  });
});
