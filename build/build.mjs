#!/usr/bin/env node
// `npm run build [-- <step>…] [--force]`: builds each step whose inputs changed since it was last built, and only
// those (build-stamp.mjs says how that is known). `npm install` runs it through `prepare`, for the steps `npm start`
// needs; `npm start` and `npm run desktop` call ensureBuilt first, so a changed source file is picked up by itself.
import { fileURLToPath } from 'node:url';
import { whyStale, writeStamp } from './build-stamp.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What builds each step, beyond the files the step itself reports: this script and the step's own. */
const BUILD_SCRIPTS = ['build/build.mjs', 'build/build-stamp.mjs', 'package.json'];

/** The build steps, in the order they run; each imports its tools only when it runs. */
export const STEPS = {
  cli: {
    what: 'the switchboard command (dist/switchboard.mjs) and its media process (dist/media-process.mjs)',
    outputs: [
      'dist/switchboard.mjs',
      'dist/media-process.mjs',
      'dist/db/migrations/meta/_journal.json',
      'dist/db/postgres-migrations/meta/_journal.json',
    ],
    async run(root) {
      const { bundleCli } = await import('./bundle-cli.mjs');
      const { copyAssets } = await import('./copy-assets.mjs');
      const bundled = await bundleCli(root);
      const copied = copyAssets(root);
      return [
        ...bundled,
        ...copied,
        'build/bundle-cli.mjs',
        'build/unreachable-data.mjs',
        'build/json-as-string.mjs',
        'build/copy-assets.mjs',
      ];
    },
  },
  testing: {
    what: 'the testing entry point (dist/testing.mjs, dist/testing.cjs and their types in dist/types)',
    outputs: [
      'dist/testing.mjs',
      'dist/testing.cjs',
      'dist/types/testing/index.d.ts',
      'dist/db/migrations/meta/_journal.json',
      'dist/db/postgres-migrations/meta/_journal.json',
    ],
    async run(root) {
      const { bundleTesting } = await import('./bundle-testing.mjs');
      const { emitTestingTypes } = await import('./testing-types.mjs');
      const { copyAssets } = await import('./copy-assets.mjs');
      const [bundled, declared] = await Promise.all([bundleTesting(root), emitTestingTypes(root)]);
      const copied = copyAssets(root);
      return [
        ...bundled,
        ...declared,
        ...copied,
        'build/bundle-testing.mjs',
        'build/testing-types.mjs',
        'build/unreachable-data.mjs',
        'build/json-as-string.mjs',
        'build/copy-assets.mjs',
      ];
    },
  },
  sdk: {
    what: 'the @switchboard/sdk package (sdk/dist: ES modules, CommonJS and their types)',
    outputs: [
      'sdk/dist/esm/index.js',
      'sdk/dist/esm/node.js',
      'sdk/dist/cjs/index.js',
      'sdk/dist/cjs/node.js',
      'sdk/dist/esm/contract.d.ts',
      'sdk/dist/cjs/contract.d.ts',
    ],
    async run(root) {
      const { buildSdkPackage } = await import('./sdk-package.mjs');
      return [
        ...(await buildSdkPackage(root)),
        'build/sdk-package.mjs',
        'build/sdk-types.mjs',
        'sdk/package.json',
        'tsconfig.json',
      ];
    },
  },
  dashboard: {
    what: 'the dashboard (dist/renderer)',
    outputs: ['dist/renderer/index.html'],
    async run(root) {
      const { buildDashboard } = await import('./build-dashboard.mjs');
      return [...(await buildDashboard(root)), 'build/build-dashboard.mjs'];
    },
  },
  desktop: {
    what: "the desktop app's main process (dist/main)",
    outputs: ['dist/main/main.js', 'dist/main/preload.cjs'],
    async run(root) {
      const { compileDesktop } = await import('./compile-desktop.mjs');
      return [...compileDesktop(root), 'build/compile-desktop.mjs'];
    },
  },
};

/** What `npm start` serves: the command and the dashboard. */
export const SERVE_STEPS = ['cli', 'dashboard'];

/** What `npm run desktop` runs: the same, and the main process (not `testing`, which it has no use for). */
export const DESKTOP_STEPS = [...SERVE_STEPS, 'desktop'];

/**
 * Builds those of `steps` that are stale (all of them with `force`), saying what and why on stderr.
 * @param {string[]} steps names of STEPS
 * @param {{ force?: boolean, root?: string }} [options]
 */
export async function ensureBuilt(steps, { force = false, root = ROOT } = {}) {
  for (const name of steps) {
    const step = STEPS[name];
    const reason = force ? 'asked to' : whyStale(root, name, step.outputs);
    if (!reason) continue;
    process.stderr.write(`Building ${step.what}: ${reason} …`);
    const started = Date.now();
    const inputs = await step.run(root);
    writeStamp(root, name, [...inputs, ...BUILD_SCRIPTS], started);
    process.stderr.write(` ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const named = args.filter((arg) => arg !== '--force');
  const unknown = named.filter((name) => !(name in STEPS));
  if (unknown.length > 0) {
    process.stderr.write(`No build step ${unknown.join(', ')}: the steps are ${Object.keys(STEPS).join(', ')}.\n`);
    process.exitCode = 2;
  } else {
    await ensureBuilt(named.length > 0 ? named : Object.keys(STEPS), { force });
  }
}
