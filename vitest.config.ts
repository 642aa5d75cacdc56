import { defineConfig } from 'vitest/config';
import { postgresMissing } from './test/support/postgres.js';

const noPostgres = postgresMissing();
if (noPostgres) console.warn(`Not running the API and SDK tests on PostgreSQL: ${noPostgres}`);

export default defineConfig({
  test: {
    // Each API test file starts its own server on port 0 with its own data dir; files run in parallel.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: [
            'test/cli/**',
            'test/browser/dashboard/**',
            'test/examples/**',
            'test/cluster/**',
            'test/sdk-package/**',
          ],
        },
      },
      {
        extends: true,
        // Users' test suites, importing `switchboard/testing` from its build as they do: built first when stale, and
        // loaded by Node itself as a package in node_modules would be (Vitest transforms the project's own files).
        test: {
          name: 'examples',
          include: ['test/examples/**/*.test.ts'],
          globalSetup: ['test/examples/build.global-setup.ts'],
          server: { deps: { external: [/\/dist\/testing\.mjs$/] } },
          // Two at once even on two cores (the default is one fewer than the cores): the isolation files meet while
          // both run. A worker count of its own needs a group of its own, run after the others.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        // `@switchboard/sdk` as users get it: built and packed once per run (npm pack), then installed from the
        // tarball into fresh projects outside the repository, a Node.js backend and a Vite app in Chromium.
        test: {
          name: 'sdk-package',
          include: ['test/sdk-package/**/*.test.ts'],
          globalSetup: ['test/sdk-package/pack.global-setup.ts'],
        },
      },
      ...(noPostgres
        ? []
        : [
            {
              extends: true as const,
              // The API, SDK and CLI suites again, each test server on a database of its own in one PostgreSQL per
              // run. The CLI files about SQLite's data folder (serve --import into it, export, npm start) run once, in
              // `cli`, which also runs serve --database-url.
              test: {
                name: 'postgres',
                include: ['test/api/**/*.test.ts', 'test/sdk/**/*.test.ts', 'test/cli/**/*.test.ts'],
                exclude: [
                  'test/cli/data.test.ts',
                  'test/cli/conventions.test.ts',
                  'test/cli/npm-start.test.ts',
                  'test/cli/replay.test.ts',
                ],
                globalSetup: ['test/support/postgres.global-setup.ts', 'test/cli/build.global-setup.ts'],
              },
            },
          ]),
      {
        extends: true,
        // The CLI tests run the built binary: its own project, so that only a run with CLI tests builds.
        test: { name: 'cli', include: ['test/cli/**/*.test.ts'], globalSetup: ['test/cli/build.global-setup.ts'] },
      },
      {
        extends: true,
        // Several `switchboard serve` processes of the built CLI on one PostgreSQL database, with Debian's Redis and
        // HAProxy (test/support/cluster.ts). Without PostgreSQL (or Redis, or HAProxy) its files say so and skip.
        test: {
          name: 'cluster',
          include: ['test/cluster/**/*.test.ts'],
          globalSetup: [
            ...(noPostgres ? [] : ['test/support/postgres.global-setup.ts']),
            'test/cli/build.global-setup.ts',
          ],
          // Three nodes, Redis and HAProxy start in a file's beforeAll, on cores shared with the other projects.
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // The dashboard's browser tests drive its Vite build: built once per run, only when one of them is queued.
        test: {
          name: 'dashboard',
          include: ['test/browser/dashboard/**/*.test.ts'],
          globalSetup: ['test/browser/dashboard/build.global-setup.ts'],
        },
      },
    ],
  },
});
