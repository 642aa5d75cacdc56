import { afterAll, beforeAll } from 'vitest';
import { type Client, client } from './http.js';
import { startTestServer, type TestServer } from './server.js';

/**
 * One fresh server (own port, own SQLite file) for the tests of a file: started before them,
 * disposed of after. Read `.api` and `.server` inside hooks and tests, not at the top level.
 */
export function useTestServer(options: Parameters<typeof startTestServer>[0] = {}): {
  readonly server: TestServer;
  readonly api: Client;
} {
  let running: { server: TestServer; api: Client } | undefined;
  beforeAll(async () => {
    const server = await startTestServer(options);
    running = { server, api: client(server.url) };
  });
  afterAll(() => running?.server.dispose());
  const current = () => {
    if (!running) throw new Error('useTestServer: the server starts in beforeAll; use it inside hooks and tests');
    return running;
  };
  return {
    get server() {
      return current().server;
    },
    get api() {
      return current().api;
    },
  };
}
