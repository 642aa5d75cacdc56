import { execFileSync } from 'node:child_process';

/**
 * The CLI tests run the built `switchboard` binary, as users do: build it once before them. (This
 * runs only when a CLI test is queued; see vitest.config.ts.)
 */
export default function buildOnce(): void {
  const started = Date.now();
  try {
    // NODE_ENV=production: `npm run build` includes the dashboard, which Vitest's NODE_ENV=test would build for development.
    execFileSync('npm', ['run', 'build', '--silent'], {
      stdio: 'pipe',
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
  console.log(`Built dist/ for the CLI tests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
