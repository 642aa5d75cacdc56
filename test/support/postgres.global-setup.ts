// Starts one PostgreSQL for a run of the `postgres` project: each test server then gets a database of its own in it
// (test/support/test-store.ts).
import type { TestProject } from 'vitest/node';
import { type PostgresServer, startPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL of this run (its `postgres` database), when the tests run on PostgreSQL. */
    postgresUrl?: string;
  }
}

let server: PostgresServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startPostgres();
  project.provide('postgresUrl', server.url());
}

export function teardown(): void {
  server?.stop();
}
