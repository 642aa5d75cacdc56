import { runNpmBuild } from '../support/npm-build.js';

/**
 * The CLI tests run the built `switchboard` binary, as users do: build it once before them. (This
 * runs only when a CLI test is queued; see vitest.config.ts.)
 */
export default function buildOnce(): void {
  runNpmBuild('build', 'dist/ for the CLI tests');
}
