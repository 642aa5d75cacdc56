import { execFileSync } from 'node:child_process';

/**
 * The CLI tests run the built `switchboard` binary, as users do: build it once before them. (This
 * runs only when a CLI test is queued; see vitest.config.ts.)
 */
export default function buildOnce(): void {
  const started = Date.now();
  try {
    execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'pipe', encoding: 'utf8' });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
  console.log(`Built dist/ for the CLI tests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
