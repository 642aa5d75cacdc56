import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The packed `@switchboard/sdk`, a .tgz outside the repository. */
    sdkTarball: string;
  }
}

/**
 * Builds the `@switchboard/sdk` package when a source changed since (build/build.mjs sdk), then packs it as a user
 * would from a clone (`npm pack`, which runs its `prepack`: the same build, found fresh), once per run, into a
 * temporary folder that the tests' projects install from. (This runs only when one of them is queued.)
 */
export default function packSdk(project: TestProject): () => void {
  const started = Date.now();
  execFileSync(process.execPath, ['build/build.mjs', 'sdk'], { stdio: 'inherit' });
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-sdk-pack-'));
  execFileSync('npm', ['pack', '--pack-destination', folder, '--silent'], { cwd: 'sdk', stdio: 'pipe' });
  const [tarball] = readdirSync(folder).filter((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${folder}`);
  project.provide('sdkTarball', join(folder, tarball));
  console.log(`Built and packed @switchboard/sdk in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return () => rmSync(folder, { recursive: true, force: true });
}
