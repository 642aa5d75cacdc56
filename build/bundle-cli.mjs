// The `switchboard` command as bundled ES modules: dist/switchboard.mjs and its chunks in dist/chunks/, what
// `npm start` and the package's bin run. Loading the compiled dist/ tree meant resolving, reading and linking about
// 600 modules; the bundle starts the server in about a third of the time (serve → first /healthz ≈680 → ≈250 ms on
// the 2-core CI machine; BENCH_ONLY=startup). Split at the dynamic imports, so that a client command (`--help`,
// `projects list`) loads the CLI and the SDK, ≈220 KB, and never the server's code.
// better-sqlite3 (either version: db/sqlite-driver.ts) stays outside: it loads a native addon from its own folder.
// The media process that `serve --rtc-media sfu` forks (server/media/main.ts) is a second entry, dist/media-process.mjs,
// sharing the chunks; it requires werift from node_modules at run time (server/media/peer-connection.ts).
import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { jsonAsStringPlugin } from './json-as-string.mjs';
import { unreachableDataPlugin } from './unreachable-data.mjs';

/**
 * Bundles the command into `root`/dist and resolves with the files it read (relative to root).
 * @param {string} root the repository
 * @returns {Promise<string[]>}
 */
export async function bundleCli(root) {
  rmSync(join(root, 'dist', 'chunks'), { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: { switchboard: 'cli/index.ts', 'media-process': 'server/media/main.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3', 'better-sqlite3-node20'],
    plugins: [unreachableDataPlugin(), jsonAsStringPlugin()],
    // Bundled CommonJS packages (Express and its dependencies) call require() for Node's own modules.
    banner: {
      js: "import { createRequire as switchboardCreateRequire } from 'node:module'; const require = switchboardCreateRequire(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  chmodSync(join(root, 'dist', 'switchboard.mjs'), 0o755);
  return Object.keys(metafile.inputs);
}
