/**
 * The dashboard (BENCH_ONLY=dashboard): the production build's weight and how soon it shows. The JavaScript the first
 * page loads (index.html's entry script and its module preloads), gzipped, against the 250 KB budget, beside every
 * chunk the build has (the rest loads with the page that needs it); then, in headless Chromium against a server on
 * loopback, the time from navigation to the sign-in form (signed out) and to the shell with the projects page
 * (signed in), medians of BENCH_DASHBOARD_RUNS (default 5), beside the floor: navigating to the server's `/healthz`.
 * Figures, not assertions: the exit code does not depend on them.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import { startServer } from '../server/index.js';
import { chromiumPath, launchChromium } from '../test/support/chromium.js';
import { percentile } from './report.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILD = join(ROOT, 'dist/renderer');
const FIRST_PAGE_BUDGET_KB = 250;
const SHELL_BUDGET_MS = 1000;
const RUNS = Number(process.env.BENCH_DASHBOARD_RUNS ?? 5);

const progress = (line: string) => process.stderr.write(`${line}\n`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipped = (file: string) => gzipSync(readFileSync(file)).length;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** The files index.html makes the browser load before anything renders: entry script, preloads and styles. */
function firstPageFiles(): { scripts: string[]; styles: string[] } {
  const html = readFileSync(join(BUILD, 'index.html'), 'utf8');
  const refs = (pattern: RegExp) => [...html.matchAll(pattern)].map((m) => join(BUILD, m[1]));
  return {
    scripts: [...refs(/<script[^>]+src="([^"]+\.js)"/g), ...refs(/<link rel="modulepreload"[^>]+href="([^"]+\.js)"/g)],
    styles: refs(/<link rel="stylesheet"[^>]+href="([^"]+\.css)"/g),
  };
}

function reportSizes(): number {
  const { scripts, styles } = firstPageFiles();
  const firstJs = scripts.reduce((sum, file) => sum + gzipped(file), 0);
  const allJs = readdirSync(join(BUILD, 'assets'))
    .filter((name) => name.endsWith('.js'))
    .reduce((sum, name) => sum + gzipped(join(BUILD, 'assets', name)), 0);
  const css = styles.reduce((sum, file) => sum + gzipped(file), 0);
  const verdict = firstJs <= FIRST_PAGE_BUDGET_KB * 1024 ? 'within' : 'OVER';
  console.log('Dashboard bundle (gzipped)');
  console.log(
    `  first page JavaScript: ${kb(firstJs)} in ${scripts.length} files (${verdict} the ${FIRST_PAGE_BUDGET_KB} KB budget)`,
  );
  console.log(`  every chunk:           ${kb(allJs)} (the rest loads with the page that needs it)`);
  console.log(`  styles:                ${kb(css)}`);
  return firstJs;
}

async function measureShell(): Promise<void> {
  if (!chromiumPath) {
    console.log('  (no Chromium: time to shell not measured)');
    return;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'switchboard-bench-dashboard-'));
  const server = await startServer({ dataDir, port: 0, logger: pino({ level: 'silent' }) });
  const chromium = await launchChromium();
  try {
    const register = await fetch(`${server.url}/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.test', password: 'a long password' }),
    });
    const session = (await register.json()) as { token: string; user: unknown };
    /** Milliseconds from navigation start to `selector` visible, by the page's own clock, in a fresh context. */
    const timeTo = async (path: string, selector: string, signedIn: boolean) => {
      const { context, newPage, close } = await chromium.newOfflineContext();
      if (signedIn) {
        await context.addInitScript(
          (stored) =>
            (
              globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }
            ).localStorage.setItem('switchboard.session', stored),
          JSON.stringify(session),
        );
      }
      const page = await newPage();
      await page.goto(server.url + path, { waitUntil: 'commit' });
      await page.locator(selector).first().waitFor({ state: 'visible' });
      const ms = (await page.evaluate(() => performance.now())) as number;
      await close();
      return ms;
    };
    const runs = async (path: string, selector: string, signedIn: boolean) => {
      await timeTo(path, selector, signedIn); // warm-up: server caches, Chromium's code cache
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await timeTo(path, selector, signedIn));
      return median(times);
    };
    const floor = await runs('/healthz', 'body', false);
    const signIn = await runs('/', 'h1:has-text("Sign in")', false);
    const shell = await runs('/', 'h1:has-text("Projects")', true);
    console.log(`Dashboard shell visible after navigation (median of ${RUNS}, localhost)`);
    console.log(`  floor (/healthz JSON): ${floor.toFixed(0)} ms`);
    console.log(`  sign-in form:          ${signIn.toFixed(0)} ms (${(signIn / floor).toFixed(1)}× the floor)`);
    console.log(
      `  signed-in shell:       ${shell.toFixed(0)} ms (${(shell / floor).toFixed(1)}× the floor; budget ${SHELL_BUDGET_MS} ms: ${shell <= SHELL_BUDGET_MS ? 'within' : 'OVER'})`,
    );
  } finally {
    await chromium.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runDashboardBench(): Promise<void> {
  progress('Building the dashboard (npm run build:dashboard) …');
  execFileSync('npm', ['run', 'build:dashboard', '--silent'], {
    cwd: ROOT,
    stdio: 'pipe',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  reportSizes();
  await measureShell();
}
