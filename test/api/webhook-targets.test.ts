import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '../../server/events/bus.js';
import { createProject, expectError, registerUser, type TestUser } from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { makeDataDir, startTestServer, type TestServer } from '../support/server.js';
import { startReceiver } from '../support/webhook-receiver.js';

/** Each deployment mode's server, with an owner and a project in it. */
interface Deployment {
  server: TestServer;
  api: Client;
  owner: TestUser;
  projectId: string;
}

async function deployment(mode: 'local' | 'production'): Promise<Deployment> {
  const server = await startTestServer({ mode });
  const api = client(server.url);
  const owner = await registerUser(api);
  return { server, api, owner, projectId: (await createProject(api, owner)).id };
}

const modes: Record<string, Deployment> = {};
beforeAll(async () => {
  modes.local = await deployment('local');
  modes.production = await deployment('production');
});
afterAll(async () => {
  await Promise.all(Object.values(modes).map((d) => d.server.dispose()));
});

const OK = 'allowed';
const LOOPBACK = /loopback address, and production deployments refuse/;
const PRIVATE = /private-network address, and production deployments refuse/;
const UNSPECIFIED = /unspecified address, and production deployments refuse/;
const LINK_LOCAL = /link-local address .*, which no deployment mode allows/;
const NEVER = /(multicast|broadcast|reserved) address, which no deployment mode allows/;
const SCHEME = /scheme \w+ is not allowed \(use (http:\/\/ or )?https:\/\/\)/;
const HTTPS = /production deployments require https:\/\//;
const CREDENTIALS = /must not contain a user name or password/;

/** [url, in a local deployment, in a production deployment]: allowed, or the reason refused. */
const vectors: [string, typeof OK | RegExp, typeof OK | RegExp][] = [
  // Schemes: only http(s), in every mode.
  ['ftp://example.com/hooks', SCHEME, SCHEME],
  ['file:///etc/passwd', SCHEME, SCHEME],
  ['gopher://example.com:70/_x', SCHEME, SCHEME],
  ['ws://example.com/hooks', SCHEME, SCHEME],
  ['wss://example.com/hooks', SCHEME, SCHEME],
  ['javascript:alert(1)', SCHEME, SCHEME],
  ['data:text/plain,hello', SCHEME, SCHEME],
  ['https://user:pass@example.com/hooks', CREDENTIALS, CREDENTIALS],
  // Public targets; plain http only in local deployments.
  ['https://example.com/hooks', OK, OK],
  ['https://93.184.216.34/hooks', OK, OK],
  ['https://[2606:4700:4700::1111]/hooks', OK, OK],
  ['http://example.com/hooks', OK, HTTPS],
  ['http://127.0.0.1:8080/hooks', OK, HTTPS],
  // Loopback, however spelled.
  ['https://localhost/hooks', OK, LOOPBACK],
  ['https://LOCALHOST./hooks', OK, LOOPBACK],
  ['https://api.localhost:3000/hooks', OK, LOOPBACK],
  ['https://127.0.0.1/hooks', OK, LOOPBACK],
  ['https://127.255.0.9/hooks', OK, LOOPBACK],
  ['https://0x7f.0.0.1/hooks', OK, LOOPBACK],
  ['https://2130706433/hooks', OK, LOOPBACK],
  ['https://0177.0.0.1/hooks', OK, LOOPBACK],
  ['https://127.1/hooks', OK, LOOPBACK],
  ['https://[::1]/hooks', OK, LOOPBACK],
  ['https://[0:0:0:0:0:0:0:1]/hooks', OK, LOOPBACK],
  ['https://[::ffff:127.0.0.1]/hooks', OK, LOOPBACK],
  ['https://[::ffff:7f00:1]/hooks', OK, LOOPBACK],
  ['https://[::127.0.0.1]/hooks', OK, LOOPBACK],
  ['https://[64:ff9b::127.0.0.1]/hooks', OK, LOOPBACK],
  ['https://[2002:7f00:1::]/hooks', OK, LOOPBACK],
  // Private ranges (and their edges).
  ['https://10.0.0.1/hooks', OK, PRIVATE],
  ['https://10.255.255.255/hooks', OK, PRIVATE],
  ['https://172.16.0.1/hooks', OK, PRIVATE],
  ['https://172.31.255.255/hooks', OK, PRIVATE],
  ['https://172.15.255.255/hooks', OK, OK],
  ['https://172.32.0.1/hooks', OK, OK],
  ['https://192.168.1.20/hooks', OK, PRIVATE],
  ['https://100.64.0.1/hooks', OK, PRIVATE],
  ['https://[fc00::1]/hooks', OK, PRIVATE],
  ['https://[fd12:3456:789a::1]/hooks', OK, PRIVATE],
  ['https://[fec0::1]/hooks', OK, PRIVATE],
  ['https://[::ffff:10.1.2.3]/hooks', OK, PRIVATE],
  ['https://[::ffff:192.168.0.1]/hooks', OK, PRIVATE],
  // Unspecified.
  ['https://0.0.0.0/hooks', OK, UNSPECIFIED],
  ['https://0/hooks', OK, UNSPECIFIED],
  ['https://[::]/hooks', OK, UNSPECIFIED],
  ['https://[::ffff:0.0.0.0]/hooks', OK, UNSPECIFIED],
  // Link-local, where cloud metadata services answer: never.
  ['https://169.254.169.254/latest/meta-data', LINK_LOCAL, LINK_LOCAL],
  ['http://169.254.169.254/latest/meta-data', LINK_LOCAL, LINK_LOCAL],
  ['https://[fe80::1]/hooks', LINK_LOCAL, LINK_LOCAL],
  ['https://[::ffff:169.254.169.254]/hooks', LINK_LOCAL, LINK_LOCAL],
  ['https://[::ffff:a9fe:a9fe]/hooks', LINK_LOCAL, LINK_LOCAL],
  // Multicast, broadcast and reserved addresses: never.
  ['https://224.0.0.1/hooks', NEVER, NEVER],
  ['https://255.255.255.255/hooks', NEVER, NEVER],
  ['https://240.0.0.1/hooks', NEVER, NEVER],
  ['https://[ff02::1]/hooks', NEVER, NEVER],
  // Hostname only, no DNS: a name that resolves to a private address passes (egress filtering is the deployer's).
  ['https://10.0.0.1.nip.io/hooks', OK, OK],
];

describe.each(['local', 'production'] as const)('registering in a %s deployment', (mode) => {
  const column = mode === 'local' ? 1 : 2;
  it.each(vectors.map((v) => [v[0], v[column]] as const))('%s: %s', async (url, expected) => {
    const { api, owner, projectId } = modes[mode];
    const res = await api.post(`/v1/projects/${projectId}/webhooks`, {
      token: owner.token,
      body: { url, environment: 'development' },
    });
    if (expected === OK) {
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return;
    }
    expectError(res, 400, 'SERVICE_WEBHOOK_TARGET_REFUSED');
    expect(res.body.message).toMatch(/^Webhook URL refused: /);
    expect(res.body.message).toMatch(expected);
  });
});

describe('the refusal says what to write', () => {
  /** The message for `url` in each deployment mode. */
  async function refusal(mode: 'local' | 'production', url: string): Promise<string> {
    const { api, owner, projectId } = modes[mode];
    const res = await api.post(`/v1/projects/${projectId}/webhooks`, {
      token: owner.token,
      body: { url, environment: 'development' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    return res.body.message;
  }

  it('suggests the scheme of a URL written without one', async () => {
    // The URL parser reads `localhost:3000/hook` as the scheme `localhost:`; this was "the scheme localhost is not allowed".
    expect(await refusal('local', 'localhost:3000/hook')).toBe(
      'Webhook URL refused: it has no scheme: write http://localhost:3000/hook.',
    );
    expect(await refusal('production', 'localhost:3000/hook')).toBe(
      'Webhook URL refused: it has no scheme: write https://localhost:3000/hook; localhost is a loopback address, ' +
        'and production deployments refuse loopback, private, link-local and unspecified addresses.',
    );
    expect(await refusal('production', 'example.com:8443/hook')).toBe(
      'Webhook URL refused: it has no scheme: write https://example.com:8443/hook.',
    );
    // What the URL parser refuses outright is invalid input, with the same suggestion.
    expect(await refusal('local', 'example.com/hook')).toBe(
      'Invalid request body: url: must be an absolute URL, e.g. https://example.com/hook.',
    );
  });

  it('names every rule a URL breaks in a production deployment, at once', async () => {
    expect(await refusal('production', 'http://10.0.0.5/hook')).toBe(
      'Webhook URL refused: production deployments require https://; 10.0.0.5 is a private-network address, and ' +
        'production deployments refuse loopback, private, link-local and unspecified addresses.',
    );
    expect(await refusal('production', 'http://user:pw@169.254.169.254/x')).toBe(
      'Webhook URL refused: it must not contain a user name or password; production deployments require https://; ' +
        '169.254.169.254 is a link-local address (where cloud metadata services live), which no deployment mode ' +
        'allows.',
    );
  });
});

describe('changing the URL', () => {
  it('applies the same checks', async () => {
    const { api, owner, projectId } = modes.production;
    const created = await api.post(`/v1/projects/${projectId}/webhooks`, {
      token: owner.token,
      body: { url: 'https://example.com/hooks', environment: 'production' },
    });
    const path = `/v1/projects/${projectId}/webhooks/${created.body.id}?environment=production`;
    const res = await api.patch(path, { token: owner.token, body: { url: 'https://[::ffff:10.0.0.1]/hooks' } });
    expectError(res, 400, 'SERVICE_WEBHOOK_TARGET_REFUSED');
    expect(res.body.message).toMatch(PRIVATE);
    expect((await api.get(path, { token: owner.token })).body.url).toBe('https://example.com/hooks');
  });
});

describe('at delivery time', () => {
  it('refuses, without sending, a target the current deployment mode does not allow', async () => {
    const receiver = await startReceiver();
    const events = createEventBus();
    const dataDir = makeDataDir();
    let server = await startTestServer({ dataDir, events, mode: 'local' });
    try {
      let api = client(server.url);
      const owner = await registerUser(api);
      const project = await createProject(api, owner);
      const hook = await api.post(`/v1/projects/${project.id}/webhooks`, {
        token: owner.token,
        body: { url: receiver.url, environment: 'development' },
      });
      expect(hook.status).toBe(201);

      // The same data, now served as a production deployment.
      await server.close();
      server = await startTestServer({ dataDir, events, mode: 'production' });
      api = client(server.url);
      // The server listens to its bus once its runtime is loaded, which this does.
      await server.runDueWebhooks();
      events.emit('catalogue', {
        type: 'room.created',
        projectId: project.id,
        environment: 'development',
        data: { room: { id: 'room_1', name: 'r', createdAt: new Date().toISOString() } },
      });
      await server.runDueWebhooks();
      expect(receiver.requests).toHaveLength(0);
      const log = await api.get(`/v1/projects/${project.id}/webhooks/${hook.body.id}/deliveries`, {
        token: owner.token,
      });
      expect(log.body.data[0]).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: null });
      expect(log.body.data[0].lastError).toMatch(/^Target refused: .*production deployments require https:\/\//);
    } finally {
      await server.dispose();
      await receiver.close();
    }
  });
});
