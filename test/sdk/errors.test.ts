import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConsoleClient, ServerClient, SwitchboardError } from '../../sdk/index.js';
import { PASSWORD } from '../support/factories.js';
import { signedInClient } from '../support/sdk.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

/** Runs `call` and returns the SwitchboardError it throws. */
async function failure(call: () => Promise<unknown>): Promise<SwitchboardError> {
  const err = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SwitchboardError);
  return err as SwitchboardError;
}

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('SwitchboardError', () => {
  it("carries the server's status, code, message and request id", async () => {
    const client = new ConsoleClient({ baseUrl: t.server.url });
    const err = await failure(() => client.auth.login({ email: 'nobody@example.test', password: PASSWORD }));
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('SwitchboardError');
    expect(err.status).toBe(401);
    expect(err.code).toBe('SERVICE_UNAUTHENTICATED');
    expect(err.message.length).toBeGreaterThan(0);
    expect(err.requestId).toMatch(/^req_[0-9A-Z]{26}$/);
  });

  it('names the invalid field of a refused request', async () => {
    const client = new ConsoleClient({ baseUrl: t.server.url });
    const err = await failure(() => client.auth.register({ email: 'short@example.test', password: 'short' }));
    expect(err).toMatchObject({ status: 400, code: 'SERVICE_VALIDATION_FAILED' });
    expect(err.message).toContain('password');
  });

  it('is a 404 for a project the caller is not a member of, as for one that does not exist', async () => {
    const owner = await signedInClient(t.server.url);
    const stranger = await signedInClient(t.server.url);
    const project = await owner.projects.create({ name: 'Private' });
    for (const id of [project.id, 'prj_missing']) {
      expect(await failure(() => stranger.projects.get(id))).toMatchObject({
        status: 404,
        code: 'SERVICE_PROJECT_NOT_FOUND',
      });
    }
  });

  it('is a 401 for a call without credentials, and for an API key on a console route', async () => {
    const anonymous = new ConsoleClient({ baseUrl: t.server.url });
    expect(await failure(() => anonymous.projects.list())).toMatchObject({
      status: 401,
      code: 'SERVICE_UNAUTHENTICATED',
    });
    const owner = await signedInClient(t.server.url);
    const project = await owner.projects.create({ name: 'Keys' });
    const { key } = await owner.keys.create(project.id, { name: 'backend' });
    const withKey = new ConsoleClient({ baseUrl: t.server.url, token: key });
    const err = await failure(() => withKey.projects.get(project.id));
    expect(err).toMatchObject({ status: 401, code: 'SERVICE_UNAUTHENTICATED' });
    expect(err.message).toMatch(/API keys are not accepted/);
  });

  it('says clearly when the server cannot be reached', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const err = await failure(() => new ServerClient({ baseUrl, apiKey: 'sb_dev_x.y' }).whoami());
    expect(err).toMatchObject({ status: 0, code: 'CLIENT_NETWORK_ERROR', requestId: null });
    expect(err.message).toContain(`Could not reach the Switchboard server at ${baseUrl}`);
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.cause).toBeInstanceOf(Error);
  });

  it('says so when an answer is not the API’s JSON (e.g. a proxy’s error page)', async () => {
    const proxyPage: typeof fetch = async () =>
      new Response('<html><body>502 Bad Gateway</body></html>', {
        status: 502,
        statusText: 'Bad Gateway',
        headers: { 'content-type': 'text/html' },
      });
    const client = new ConsoleClient({ baseUrl: t.server.url, token: 'x', fetch: proxyPage });
    const err = await failure(() => client.projects.list());
    expect(err).toMatchObject({ status: 502, code: 'CLIENT_UNEXPECTED_RESPONSE', requestId: null });
    expect(err.message).toContain('GET /v1/projects answered HTTP 502 Bad Gateway');
    expect(err.message).toContain('502 Bad Gateway</body>');
  });
});
