#!/usr/bin/env node
// `npm start [-- <serve options>]`: `switchboard serve` from the built tree, after building whatever changed since
// the last build (on an unchanged tree that is a look at each input's time, a few milliseconds).
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt, SERVE_STEPS } from './build.mjs';

const cli = join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'switchboard.mjs');

await ensureBuilt(SERVE_STEPS);
// In this process rather than a child: one Node.js start, and signals reach the server directly.
process.argv.splice(1, 1, cli, 'serve');
await import(pathToFileURL(cli).href);
