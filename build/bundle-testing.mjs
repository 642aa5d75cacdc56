// `switchboard/testing` (testing/index.ts), the entry point for users' test suites, as two single-file bundles:
// dist/testing.mjs for `import` and dist/testing.cjs for `require` (Jest's default: a test transformed to CommonJS
// requires its packages, and Jest's own require refuses ES modules). No chunks: a test server loads its runtime
// before it answers, so nothing would be loaded later. better-sqlite3 stays outside, as in the CLI's bundle.
import { build } from 'esbuild';
import { jsonAsStringPlugin } from './json-as-string.mjs';
import { unreachableDataPlugin } from './unreachable-data.mjs';

/** What both bundles share. */
const COMMON = {
  entryPoints: ['testing/index.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'better-sqlite3-node20'],
  plugins: [unreachableDataPlugin(), jsonAsStringPlugin()],
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
};

/**
 * Bundles the entry point into `root`/dist and resolves with the files it read (relative to root).
 * @param {string} root the repository
 * @returns {Promise<string[]>}
 */
export async function bundleTesting(root) {
  const [esm, cjs] = await Promise.all([
    build({
      ...COMMON,
      absWorkingDir: root,
      outfile: 'dist/testing.mjs',
      format: 'esm',
      // Bundled CommonJS packages (Express and its dependencies) call require() for Node's own modules.
      banner: {
        js: "import { createRequire as switchboardCreateRequire } from 'node:module'; const require = switchboardCreateRequire(import.meta.url);",
      },
    }),
    build({
      ...COMMON,
      absWorkingDir: root,
      outfile: 'dist/testing.cjs',
      format: 'cjs',
      // The server finds its files (migrations, package.json) from its module's URL.
      define: { 'import.meta.url': 'switchboardModuleUrl' },
      banner: { js: "const switchboardModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    }),
  ]);
  return [...new Set([...Object.keys(esm.metafile.inputs), ...Object.keys(cjs.metafile.inputs)])];
}
