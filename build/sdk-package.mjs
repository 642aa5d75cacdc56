// The `@switchboard/sdk` package (sdk/package.json), built into sdk/dist: its two entry points, `.` (sdk/index.ts,
// browser-safe: only `fetch` and `WebSocket`) and `./node` (sdk/node.ts: the same and verifyWebhook, on node:crypto),
// each as an ES module (sdk/dist/esm) and as CommonJS (sdk/dist/cjs, whose package.json says so to Node and to
// TypeScript), with the same declarations beside each (build/sdk-types.mjs). Not minified: the app's bundler does that.
// `./node` loads `.` rather than a copy of it, so that its classes are the same (`instanceof SwitchboardError`).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { sdkDeclarations } from './sdk-types.mjs';

const OUT = 'sdk/dist';
const FORMATS = /** @type {const} */ (['esm', 'cjs']);

/** Leaves the browser entry out of the Node entry's bundle: `./node` imports it from beside itself. */
const browserEntryOutside = {
  name: 'browser-entry-outside',
  /** @param {import('esbuild').PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^\.\/index\.js$/ }, (args) =>
      args.importer.endsWith(join('sdk', 'node.ts')) ? { path: './index.js', external: true } : undefined,
    );
  },
};

/**
 * Builds the package into `root`/sdk/dist and resolves with the files it read (relative to root).
 * @param {string} root the repository
 * @returns {Promise<string[]>}
 */
export async function buildSdkPackage(root) {
  rmSync(join(root, OUT), { recursive: true, force: true });
  const bundles = await Promise.all(
    FORMATS.flatMap((format) =>
      ['index', 'node'].map((entry) =>
        build({
          absWorkingDir: root,
          entryPoints: [`sdk/${entry}.ts`],
          outfile: `${OUT}/${format}/${entry}.js`,
          bundle: true,
          format,
          platform: 'neutral',
          target: 'es2022',
          external: ['node:*'],
          plugins: [browserEntryOutside],
          legalComments: 'none',
          logLevel: 'warning',
          metafile: true,
        }),
      ),
    ),
  );
  writeFileSync(join(root, OUT, 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
  const { declarations, inputs } = sdkDeclarations(root);
  for (const format of FORMATS) {
    for (const [path, text] of declarations) {
      const file = join(root, OUT, format, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
  }
  return [...new Set([...bundles.flatMap((bundle) => Object.keys(bundle.metafile.inputs)), ...inputs])];
}
