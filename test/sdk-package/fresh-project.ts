// A fresh project of a Switchboard user, in a temporary folder outside the repository, with the packed SDK installed
// from its tarball as an app installs a package: what the package tests build and run their programs in.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository: nothing a fresh project loads may come from here but the tools the test lends it by path. */
export const REPOSITORY = resolve('.');

/** The repository's TypeScript compiler, by path: the fresh project installs nothing but the SDK. */
export const TSC = join(REPOSITORY, 'node_modules', 'typescript', 'bin', 'tsc');
/** TypeScript's own declarations of the standard library, which its compiler reads wherever it is. */
const TYPESCRIPT_LIB = join(REPOSITORY, 'node_modules', 'typescript', 'lib');

export interface FreshProject {
  /** The project's folder (its real path). */
  folder: string;
  write(files: Record<string, string>): void;
  /** Runs a program in the project's folder; resolves with what it printed, rejects with its output on failure. */
  run(file: string, args: string[], options?: { timeout?: number; env?: NodeJS.ProcessEnv }): Promise<string>;
  /**
   * `tsc -p .` with the repository's compiler; rejects with its diagnostics. Resolves with the files it read, but for
   * TypeScript's own declarations of the standard library.
   */
  compile(): Promise<string[]>;
  /** Where Node resolves `specifier` from the project, with `import` and with `require`. */
  resolved(specifier: string): Promise<{ import: string; require: string }>;
  remove(): void;
}

/**
 * The environment of npm and of the project's programs: this one's, but for what `npm test` set for the
 * repository's own scripts (npm_package_*, npm_lifecycle_*, the repository's npm_config_* …), which would point a
 * child npm back at it. The npm cache and registry a machine was given stay.
 */
function userEnvironment(): NodeJS.ProcessEnv {
  const kept = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') || kept.has(name)),
  );
}

/** A new project in a temporary folder, `package.json` (an ES module app) and the SDK installed from `tarball`. */
export async function freshProject(name: string, tarball: string): Promise<FreshProject> {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), `switchboard-${name}-`)));
  const env = userEnvironment();
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), text);
    }
  };
  write({ 'package.json': `${JSON.stringify({ name, private: true, type: 'module' }, null, 2)}\n` });
  // The tarball has no dependencies: nothing to fetch, so no registry either.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', tarball], { cwd: folder, env });
  const runIn = async (file: string, args: string[], options: { timeout?: number; env?: NodeJS.ProcessEnv } = {}) => {
    try {
      return (
        await run(file, args, { cwd: folder, env: { ...env, ...options.env }, timeout: options.timeout ?? 20_000 })
      ).stdout;
    } catch (err) {
      const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
      throw new Error(`${[file, ...args].join(' ')} failed in ${folder}:\n${stdout}${stderr}`);
    }
  };
  return {
    folder,
    write,
    run: runIn,
    async compile() {
      const listed = await runIn(process.execPath, [TSC, '-p', '.', '--listFiles'], { timeout: 60_000 });
      return listed.split('\n').filter((file) => file && !isInside(TYPESCRIPT_LIB, file));
    },
    async resolved(specifier) {
      const script = `console.log(JSON.stringify({ import: import.meta.resolve(${JSON.stringify(specifier)}),
        require: (await import('node:module')).createRequire(import.meta.url).resolve(${JSON.stringify(specifier)}) }))`;
      const printed = await runIn(process.execPath, ['--input-type=module', '-e', script]);
      const { import: imported, require: required } = JSON.parse(printed);
      return { import: realpathSync(new URL(imported)), require: realpathSync(required) };
    },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** True when `file` lies inside `folder`. */
export function isInside(folder: string, file: string): boolean {
  const path = relative(folder, file);
  return !path.startsWith('..') && !path.startsWith('/');
}
