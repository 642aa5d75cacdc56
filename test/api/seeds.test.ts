import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { exampleSeed } from '../../cli/seed-example.js';
import { verifyWebhook } from '../../sdk/node.js';
import { describeDataDir } from '../../server/data-archive/index.js';
import { parseSeed, SeedError } from '../../server/index.js';
import { tableContents } from '../support/data-archives.js';
import { client } from '../support/http.js';
import { makeDataDir, startTestServer, type TestServer } from '../support/server.js';
import { withTestDatabase } from '../support/test-database.js';
import { testStore, testStoreOptions } from '../support/test-store.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

const KEY = 'sb_dev_seededbackend01.seededSecretForTests0123456789';
const STAGING_KEY = 'sb_stg_seededstaging01.anotherSeededSecret0123456789';
const SECRET = 'whsec_seededWebhookSecret0123456789abcd';

/** A seed of every kind of object, its webhook pointing at `receiver`. */
const seedFor = (receiver: WebhookReceiver, overrides: Record<string, unknown> = {}) => ({
  version: 1,
  user: { email: 'Dev@Example.com', password: 'development only', name: 'Dev' },
  projects: [
    {
      name: 'Seeded app',
      members: [{ email: 'mate@example.com', password: 'another password', role: 'DEVELOPER' }],
      apiKeys: [
        { name: 'backend', environment: 'development', key: KEY },
        { name: 'staging backend', environment: 'STAGING', key: STAGING_KEY },
      ],
      rooms: [{ environment: 'development', name: 'lobby', maxParticipants: 4 }],
      conversations: [{ environment: 'development', name: 'general', members: [{ userId: 'alice', role: 'ADMIN' }] }],
      webhooks: [{ environment: 'development', url: receiver.url, events: ['message.created'], secret: SECRET }],
    },
  ],
  ...overrides,
});

/**
 * What a server that failed to start left in its store: null when it holds no account or project (nor, in a data
 * folder, attachment files).
 */
async function leftBehind(dataDir: string): Promise<string | null> {
  if (testStore() === 'sqlite') return describeDataDir(dataDir);
  return withTestDatabase({ dataDir, ...(await testStoreOptions(dataDir)) }, async (db) => {
    if (!(await db.tables()).includes('users')) return null;
    const [{ accounts, projects }] = await db.query<{ accounts: number; projects: number }>(
      'SELECT (SELECT count(*) FROM users) AS accounts, (SELECT count(*) FROM projects) AS projects',
    );
    return accounts || projects ? `${accounts} accounts and ${projects} projects` : null;
  });
}

const asSeed = (value: unknown) => parseSeed(JSON.stringify(value), 'test.seed.json');

async function seeded(seed: unknown, options: { dataDir?: string; mode?: 'local' | 'production' } = {}) {
  const server = await startTestServer({ ...options, seed: asSeed(seed) });
  cleanup.push(() => server.dispose());
  return server as TestServer & { seed: unknown };
}

describe('serve with a seed', () => {
  it('creates what the file declares on an empty folder, with the key text and webhook secret given', async () => {
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const server = await seeded(seedFor(receiver));
    expect(server.seed).toMatchObject({
      applied: true,
      created: { accounts: 2, projects: 1, apiKeys: 2, rooms: 1, conversations: 1, webhooks: 1 },
      user: { email: 'dev@example.com' },
    });
    const api = client(server.url);
    const login = await api.post('/v1/auth/login', {
      body: { email: 'dev@example.com', password: 'development only' },
    });
    expect(login.status).toBe(200);
    const [project] = (await api.get('/v1/projects', { token: login.body.token })).body.data;
    expect(project).toMatchObject({ name: 'Seeded app', role: 'OWNER' });
    const members = (await api.get(`/v1/projects/${project.id}/members`, { token: login.body.token })).body.data;
    expect(members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['dev@example.com', 'OWNER'],
      ['mate@example.com', 'DEVELOPER'],
    ]);
    expect((await api.get('/v1/whoami', { token: KEY })).body).toMatchObject({
      projectId: project.id,
      environment: 'development',
    });
    expect((await api.get('/v1/whoami', { token: STAGING_KEY })).body.environment).toBe('staging');
    const rooms = (await api.get('/v1/rooms', { token: KEY })).body.data;
    expect(rooms.map((r: { name: string; maxParticipants: number }) => [r.name, r.maxParticipants])).toEqual([
      ['lobby', 4],
    ]);
    const [conversation] = (await api.get('/v1/chat/conversations', { token: KEY })).body.data;
    expect(conversation.name).toBe('general');
    // What was created, by id, in the seed's order.
    const keys = (await api.get(`/v1/projects/${project.id}/api-keys?environment=staging`, { token: login.body.token }))
      .body.data;
    expect(server.seed).toMatchObject({
      user: { id: login.body.user.id },
      projects: [
        {
          id: project.id,
          name: 'Seeded app',
          apiKeys: [
            { name: 'backend', environment: 'development' },
            { id: keys[0].id, name: 'staging backend', environment: 'staging' },
          ],
          rooms: [{ id: rooms[0].id, name: 'lobby', environment: 'development' }],
          conversations: [{ id: conversation.id, name: 'general', environment: 'development' }],
          webhooks: [{ url: receiver.url, environment: 'development' }],
        },
      ],
    });
    // The seed's own objects queued no deliveries; a message does, signed with the secret from the file.
    const sent = await api.post(`/v1/chat/conversations/${conversation.id}/messages`, {
      token: KEY,
      body: { senderId: 'alice', text: 'hi' },
    });
    expect(sent.status).toBe(201);
    await server.runDueWebhooks();
    const [delivery] = await receiver.waitForRequests(1);
    expect(JSON.parse(delivery.rawBody.toString()).type).toBe('message.created');
    expect(verifyWebhook(SECRET, delivery.headers['service-signature'] as string, delivery.rawBody)).toBe(true);
    expect(receiver.requests).toHaveLength(1);
  });

  it('creates once: a restart with the same seed leaves the data as it is', async () => {
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const dataDir = makeDataDir();
    const first = await startTestServer({ dataDir, seed: asSeed(seedFor(receiver)) });
    await first.close();
    const before = await tableContents(first);
    const again = await seeded(seedFor(receiver), { dataDir });
    const store = testStore() === 'sqlite' ? 'data folder' : 'database';
    expect(again.seed).toEqual({ applied: false, reason: `the ${store} already holds 2 accounts and 1 project` });
    await again.close();
    const after = await tableContents(again);
    for (const table of [
      'users',
      'projects',
      'project_members',
      'api_keys',
      'rooms',
      'conversations',
      'webhook_endpoints',
    ])
      expect(after[table], table).toEqual(before[table]);
  });

  it('applies nothing when a step fails, naming the seed path', async () => {
    const dataDir = makeDataDir();
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // Valid as a file, refused while applying: production refuses webhook targets on private addresses.
    const seed = {
      user: { email: 'ops@example.com', password: 'a long password' },
      projects: [
        { name: 'First', rooms: [{ environment: 'production', name: 'lobby' }] },
        { name: 'Second', webhooks: [{ environment: 'production', url: 'https://10.0.0.8/hooks' }] },
      ],
    };
    await expect(startTestServer({ dataDir, mode: 'production', seed: asSeed(seed) })).rejects.toThrow(
      /^projects\[1\]\.webhooks\[0\]: Webhook URL refused/,
    );
    expect(await leftBehind(dataDir)).toBeNull();
  });

  it('in production mode, refuses a seed that carries key text or webhook secrets', async () => {
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const dataDir = makeDataDir();
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const start = startTestServer({ dataDir, mode: 'production', seed: asSeed(seedFor(receiver)) });
    await expect(start).rejects.toThrow(SeedError);
    await expect(start).rejects.toThrow(
      'A production-mode server refuses seeds that carry secrets, which belong in a secret manager, not a file: ' +
        'projects[0].apiKeys[0].key, projects[0].apiKeys[1].key, projects[0].webhooks[0].secret.',
    );
    expect(await leftBehind(dataDir)).toBeNull();
  });

  it('serves its JSON Schema, and the example `seed init` writes is valid', async () => {
    const server = await startTestServer();
    cleanup.push(() => server.dispose());
    const schema = (await client(server.url).get('/schemas/seed.json')).body;
    expect(schema).toMatchObject({ title: 'Switchboard seed file', type: 'object', required: ['user'] });
    expect(parseSeed(exampleSeed(), 'switchboard.seed.json').projects[0].apiKeys).toHaveLength(1);
  });
});
