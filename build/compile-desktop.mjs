// The desktop app's main process and the server it starts, compiled by tsc into dist/ (dist/main/main.js is the
// package's `main`, what Electron runs). Incremental: tsc keeps what it learnt in dist/.build/tsc.tsbuildinfo.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

/** The folders tsconfig.build.json compiles. */
const SOURCES = ['db', 'server', 'cli', 'sdk', 'main'];

/**
 * Compiles with tsconfig.build.json and returns the files it read: the TypeScript below SOURCES and the configs.
 * @param {string} root the repository
 * @returns {string[]}
 */
export function compileDesktop(root) {
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  const sources = SOURCES.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.[cm]?ts$/.test(entry.name) && !entry.name.endsWith('.test.ts'))
      .map((entry) => relative(root, join(entry.parentPath, entry.name))),
  );
  return [...sources, 'tsconfig.json', 'tsconfig.build.json'];
}
