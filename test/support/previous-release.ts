/**
 * The previous release, which the upgrade tests (test/cluster/upgrade.test.ts) start from, built from this
 * repository's history: its tree at that commit (`git archive`, nothing in the repository changes), this checkout's
 * node_modules linked into it, and its own build of the `switchboard` command. About 2 s here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The commit of the last release: the one whose nodes and data the current code must upgrade from, and go back to.
 * Move it at each release to the commit released (the release's tag, once there are tags), in the same commit as the
 * release's notes on its migrations. Until then 0.1.0 has no tag: this is the last commit that passed CI before the
 * schema history (db/schema-history.ts) came in.
 */
export const PREVIOUS_RELEASE = '3b22733286b8fe90afca9ff89a7757bb520ffe61';

export interface PreviousRelease {
  commit: string;
  /** Its built `switchboard` command (dist/switchboard.mjs), to run with Node.js. */
  bin: string;
  /** Deletes its folder. */
  remove(): void;
}

/**
 * Unpacks and builds the previous release. Fails, saying what to do, when the commit is not in this clone (a shallow
 * one): the upgrade is not tested rather than skipped in silence.
 */
export function buildPreviousRelease(): PreviousRelease {
  const repository = resolve('.');
  try {
    execFileSync('git', ['cat-file', '-e', `${PREVIOUS_RELEASE}^{commit}`], { cwd: repository, stdio: 'pipe' });
  } catch {
    throw new Error(
      `The previous release's commit ${PREVIOUS_RELEASE} (test/support/previous-release.ts) is not in this clone's history, which the upgrade tests build it from: clone the repository whole (not --depth), or run \`git fetch --unshallow\`.`,
    );
  }
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-previous-release-'));
  try {
    execFileSync('sh', ['-c', 'git archive --format=tar "$1" | tar -x -C "$2"', 'sh', PREVIOUS_RELEASE, folder], {
      cwd: repository,
      stdio: 'pipe',
    });
    // Its dependencies are a subset of this checkout's (the lock only gained packages since): linked, not installed.
    symlinkSync(join(repository, 'node_modules'), join(folder, 'node_modules'), 'dir');
    execFileSync(process.execPath, ['build/build.mjs', 'cli'], { cwd: folder, stdio: 'pipe' });
  } catch (err) {
    rmSync(folder, { recursive: true, force: true });
    throw err;
  }
  return {
    commit: PREVIOUS_RELEASE,
    bin: join(folder, 'dist', 'switchboard.mjs'),
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}
