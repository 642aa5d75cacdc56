#!/usr/bin/env node
// `npm run desktop`: builds what changed, then runs the desktop app from source in Electron. npm does not run
// Electron's download script (allowScripts in package.json), so where its binary was never fetched this says so, and
// how to fetch it, in one sentence.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { DESKTOP_STEPS, ensureBuilt } from './build.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The Electron binary's path, or undefined when it was never downloaded (node_modules/electron then throws). */
function electronBinary() {
  try {
    const path = createRequire(import.meta.url)('electron');
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

const electron = electronBinary();
if (!electron) {
  console.error(
    "Electron's binary is not installed (npm skips its download): run `npm run desktop:install` once, on a machine that can reach Electron's release downloads, then `npm run desktop` again.",
  );
  process.exit(1);
}
await ensureBuilt(DESKTOP_STEPS);
const app = spawn(electron, [ROOT], { stdio: 'inherit' });
app.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
