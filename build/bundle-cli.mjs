// The `switchboard` command as one ES module, dist/switchboard.mjs: what `npm start` and the package's bin run.
// Loading the compiled dist/ tree meant resolving, reading and linking about 600 modules; one bundled file starts the
// server in half the time (serve → first /healthz ≈680 → ≈250 ms on the 2-core CI machine; BENCH_ONLY=startup).
// better-sqlite3 stays outside: it loads a native addon from its own folder.
import { chmodSync } from 'node:fs';
import { build } from 'esbuild';

const OUTPUT = 'dist/switchboard.mjs';

await build({
  entryPoints: ['cli/index.ts'],
  outfile: OUTPUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3'],
  // Bundled CommonJS packages (Express and its dependencies) call require() for Node's own modules.
  banner: {
    js: "import { createRequire as switchboardCreateRequire } from 'node:module'; const require = switchboardCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(OUTPUT, 0o755);
