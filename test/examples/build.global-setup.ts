import { execFileSync } from 'node:child_process';

/**
 * The examples import `switchboard/testing` as users do, from its build (dist/testing.mjs, dist/types): built first
 * when a source changed since. (This runs only when an example test is queued; see vitest.config.ts.)
 */
export default function buildTestingEntry(): void {
  execFileSync(process.execPath, ['build/build.mjs', 'testing'], { stdio: 'inherit' });
}
