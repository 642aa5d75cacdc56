import { execFileSync } from 'node:child_process';

/**
 * The dashboard tests drive the built dashboard, as the server serves it: build it once per run (only when a
 * dashboard test is queued; see vitest.config.ts) into dist/renderer, the server's default dashboard folder.
 */
export default function buildDashboardOnce(): void {
  const started = Date.now();
  try {
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build: test what users get.
    execFileSync('npm', ['run', 'build:dashboard', '--silent'], {
      stdio: 'pipe',
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`npm run build:dashboard failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
  console.log(`Built the dashboard for its browser tests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
