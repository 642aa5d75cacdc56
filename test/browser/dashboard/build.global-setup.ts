import { runNpmBuild } from '../../support/npm-build.js';

/**
 * The dashboard tests drive the built dashboard, as the server serves it: build it once per run (only when a
 * dashboard test is queued; see vitest.config.ts) into dist/renderer, the server's default dashboard folder.
 */
export default function buildDashboardOnce(): void {
  runNpmBuild('build:dashboard', 'the dashboard for its browser tests');
}
