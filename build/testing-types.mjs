// The declarations of `switchboard/testing` (the exports map's "types"): tsc writes them from the sources into
// dist/types/, the entry point's at dist/types/testing/index.d.ts. The SDK's types come from the server's route table
// (docs/sdk.md), so the server's declarations are written too. Incremental: tsc keeps what it learnt in
// dist/.build/testing-types.tsbuildinfo.
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

const CONFIG = 'build/tsconfig.testing-types.json';
const ENTRY = 'dist/types/testing/index.d.ts';
const BUILD_INFO = 'dist/.build/testing-types.tsbuildinfo';

/**
 * Writes the declarations and resolves with the files tsc read (relative to root; Node's and packages' are dropped by
 * the stamp).
 * @param {string} root the repository
 * @returns {Promise<string[]>}
 */
export async function emitTestingTypes(root) {
  // tsc's build info does not notice deleted outputs: without the entry's declaration, start afresh.
  if (!existsSync(join(root, ENTRY))) rmSync(join(root, BUILD_INFO), { force: true });
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', CONFIG, '--listFiles'], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
    return [
      ...stdout
        .split('\n')
        .filter(Boolean)
        .map((file) => relative(root, file)),
      CONFIG,
      'tsconfig.json',
    ];
  } catch (err) {
    const { stdout = '', stderr = '' } = /** @type {{ stdout?: string, stderr?: string }} */ (err);
    throw new Error(`tsc could not write the declarations of switchboard/testing:\n${stdout}${stderr}`);
  }
}
