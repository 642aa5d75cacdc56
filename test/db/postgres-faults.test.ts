// PostgreSQL lost while the server runs: requests answer 503 with Retry-After, /readyz says the store is down,
// nothing acknowledged is lost, and everything works again once PostgreSQL is back, with no restart.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/index.js';
import { type PostgresServer, postgresMissing, startPostgres } from '../support/postgres.js';
import { makeDataDir } from '../support/server.js';
import { TEST_SECRET_KEY } from '../support/test-store.js';

const missing = postgresMissing();
if (missing) console.warn(`Skipping the PostgreSQL fault tests: ${missing}`);

describe.skipIf(missing !== undefined)('a server whose PostgreSQL goes away', () => {
  let postgres: PostgresServer;
  let server: RunningServer;
  let token: string;
  beforeAll(async () => {
    postgres = await startPostgres();
    server = await startServer({
      dataDir: makeDataDir(),
      databaseUrl: postgres.url(postgres.createDatabase()),
      secretKey: TEST_SECRET_KEY,
      port: 0,
      logger: pino({ level: 'silent' }),
    });
    const registered = await fetch(`${server.url}/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.test', password: 'correct horse battery' }),
    });
    expect(registered.status).toBe(201);
    token = ((await registered.json()) as { token: string }).token;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    postgres?.stop();
  });

  const createProject = (name: string) =>
    fetch(`${server.url}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name }),
    });
  const listProjects = async () => {
    const res = await fetch(`${server.url}/v1/projects`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { data: { name: string }[] }).data.map((p) => p.name);
  };

  it('answers 503 with Retry-After while it is gone, and recovers by itself when it is back', async () => {
    expect((await createProject('before')).status).toBe(201);
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({
      status: 'ready',
      store: { kind: 'postgres', status: 'up' },
    });

    postgres.pause();
    try {
      const refused = await createProject('during');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(((await refused.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', store: { kind: 'postgres', status: 'down' } });
      // The background jobs (the webhook worker polls every second) meet the outage too, and nothing crashes.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      // The process itself is fine.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      postgres.resume();
    }

    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect((await createProject('after')).status).toBe(201);
    // What was acknowledged is there; what was refused is not.
    expect((await listProjects()).sort()).toEqual(['after', 'before']);
  }, 60_000);
});
