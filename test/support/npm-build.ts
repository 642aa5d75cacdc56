import { execFileSync } from 'node:child_process';

/**
 * Runs `npm run <script>` once for a vitest globalSetup and says how long it took. NODE_ENV=production: Vitest sets
 * NODE_ENV=test, which would make Vite bundle React's development build into the dashboard.
 */
export function runNpmBuild(script: string, what: string): void {
  const started = Date.now();
  try {
    execFileSync('npm', ['run', script, '--silent'], {
      stdio: 'pipe',
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`npm run ${script} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
  console.log(`Built ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
