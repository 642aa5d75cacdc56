// Rotating the server's secret key (docs/deployment.md, "Rotating the secret key"): a webhook endpoint registered under
// the old key keeps signing with the same secret through the rotation and after the old key is dropped, on SQLite
// (the data folder's key file, `switchboard secret-key rotate`) and on PostgreSQL (SWITCHBOARD_PREVIOUS_SECRET_KEY);
// a server lacking a key that rows still need refuses to start, saying what to do.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/node.js';
import { type RunningServer, type ServerOptions, startServer } from '../../server/index.js';
import { deriveKeys } from '../../server/secret-key.js';
import { rotateDataDirKey } from '../../server/secret-key-rotation/rotate-data-dir.js';
import { createProject, registerUser, registerWebhook, type TestUser } from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { type PostgresServer, postgresMissing, startPostgres } from '../support/postgres.js';
import { type RedisServer, redisMissing, startRedis } from '../support/redis.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const OLD_KEY = 'the-old-secret-key-of-the-rotation-test-0123456789';
const NEW_KEY = 'the-new-secret-key-of-the-rotation-test-0123456789';

const silent = pino({ level: 'silent' });

/** What one server run is: the server, a client of it, and the owner's project and endpoint registered in the first. */
interface World {
  owner: TestUser;
  projectId: string;
  webhook: { id: string; secret: string };
}

async function registerWorld(api: Client, receiver: WebhookReceiver): Promise<World> {
  const owner = await registerUser(api);
  const { id: projectId } = await createProject(api, owner);
  const webhook = await registerWebhook(api, projectId, owner, { url: receiver.url });
  return { owner, projectId, webhook };
}

/** Sends a test event to the endpoint from `server`, and answers whether the receiver verified its signature. */
async function deliversSigned(server: RunningServer, world: World, receiver: WebhookReceiver): Promise<boolean> {
  const api = client(server.url);
  const before = receiver.requests.length;
  const res = await api.post(
    `/v1/projects/${world.projectId}/webhooks/${world.webhook.id}/test?environment=development`,
    { token: world.owner.token, body: { type: 'message.created' } },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await server.runDueWebhooks();
  const [request] = (await receiver.waitForRequests(before + 1)).slice(before);
  return verifyWebhook(world.webhook.secret, request.headers['service-signature'] as string, request.rawBody);
}

/** The rotation's state, as `switchboard status` shows it. */
async function secretKeyStatus(server: RunningServer, owner: TestUser) {
  const res = await client(server.url).get('/v1/server/nodes', { token: owner.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.secretKey as { inUse: string; replaced: string | null; pending: number; rotation: string };
}

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

describe('on SQLite: the data folder key, rotated by `switchboard secret-key rotate`', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-rotate-sqlite-'));
  });
  afterAll(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  const start = () => startServer({ dataDir, port: 0, logger: silent, passwordHashing: 'fast' });

  it('seals every secret again with the new key while it serves, then drops the old one', async () => {
    let server = await start();
    const world = await registerWorld(client(server.url), receiver);
    expect(await deliversSigned(server, world, receiver)).toBe(true);
    await server.close();

    rotateDataDirKey(dataDir);
    // A second rotation waits for the first to be done.
    expect(() => rotateDataDirKey(dataDir)).toThrow(
      /^a rotation of .* is under way: start the server and let it finish/,
    );

    server = await start();
    await server.runSecretKeyRotation();
    expect(existsSync(join(dataDir, 'webhook-secrets.previous.key'))).toBe(false);
    expect(await secretKeyStatus(server, world.owner)).toMatchObject({ replaced: null, pending: 0, rotation: 'done' });
    expect(await deliversSigned(server, world, receiver)).toBe(true);
    await server.close();

    // On the new key alone: the same secret still signs.
    server = await start();
    expect(await secretKeyStatus(server, world.owner)).toMatchObject({ pending: 0, rotation: 'none' });
    expect(await deliversSigned(server, world, receiver)).toBe(true);
    await server.close();
  });

  it('refuses to start when the previous key file went before the rotation, saying to put it back', async () => {
    rotateDataDirKey(dataDir);
    rmSync(join(dataDir, 'webhook-secrets.previous.key'));
    await expect(start()).rejects.toThrow(
      /^The webhook-secrets key \(webhook-secrets\.key\) is not the one this database was written with \(.{12}\): start with that one \(its webhook secrets and tokens cannot be read with another\), or, to rotate to this one, with that one as the previous key \(webhook-secrets\.previous\.key in the data folder\)\.$/,
    );
  });
});

const missing = postgresMissing();
if (missing) console.warn(`Skipping the secret key rotation tests on PostgreSQL: ${missing}`);

describe.skipIf(missing !== undefined)('on PostgreSQL: SWITCHBOARD_SECRET_KEY beside the previous one', () => {
  let postgres: PostgresServer;
  let dataDir: string;
  beforeAll(async () => {
    postgres = await startPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-rotate-pg-'));
  }, 60_000);
  afterAll(() => {
    postgres?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  const start = (databaseUrl: string, keys: Pick<ServerOptions, 'secretKey' | 'previousSecretKey'>) =>
    startServer({ dataDir, databaseUrl, ...keys, port: 0, logger: silent, passwordHashing: 'fast' });

  it('keeps webhook signatures and sessions through the rotation; the old key can go once it is done', async () => {
    const url = postgres.url(postgres.createDatabase());
    let server = await start(url, { secretKey: OLD_KEY });
    const world = await registerWorld(client(server.url), receiver);
    expect(await deliversSigned(server, world, receiver)).toBe(true);
    await server.close();

    await expect(start(url, { secretKey: NEW_KEY })).rejects.toThrow(
      'The secret key is not the one this database was written with',
    );

    server = await start(url, { secretKey: NEW_KEY, previousSecretKey: OLD_KEY });
    // A session signed with the old key is still good during the rotation.
    const whoami = await client(server.url).get('/v1/whoami', { token: world.owner.token });
    expect(whoami.status).toBe(200);
    await server.runSecretKeyRotation();
    const status = await secretKeyStatus(server, world.owner);
    expect(status).toEqual({
      inUse: deriveKeys(NEW_KEY).fingerprint.slice(0, 12),
      replaced: null,
      pending: 0,
      rotation: 'done',
    });
    expect(await deliversSigned(server, world, receiver)).toBe(true);
    const signedIn = await client(server.url).post('/v1/auth/login', {
      body: { email: world.owner.email, password: 'correct horse battery' },
    });
    expect(signedIn.status).toBe(200);
    await server.close();

    // Moved on: the old key alone is refused, saying what to do.
    await expect(start(url, { secretKey: OLD_KEY })).rejects.toThrow(
      /^This database has moved to a new secret key \(.{12}\) and no longer needs this one: start with the new one\.$/,
    );

    // The new key alone: the endpoint signs with its same secret; a session signed with the old key is over, one
    // signed with the new key is good.
    server = await start(url, { secretKey: NEW_KEY });
    expect((await client(server.url).get('/v1/whoami', { token: world.owner.token })).status).toBe(401);
    world.owner = { ...world.owner, token: signedIn.body.token };
    expect(await deliversSigned(server, world, receiver)).toBe(true);
    await server.close();
  });

  it('refuses the new key alone while secrets sealed with the old one remain', async () => {
    const url = postgres.url(postgres.createDatabase());
    const server = await start(url, { secretKey: OLD_KEY });
    await registerWorld(client(server.url), receiver);
    await server.close();
    // As a server that stopped just after the switch leaves the database: the new key in use, nothing sealed again.
    const database = new URL(url).pathname.slice(1);
    postgres.psql(
      {
        sql:
          `UPDATE server_secrets SET value = '${deriveKeys(NEW_KEY).fingerprint}' WHERE name = 'secret-key-fingerprint';` +
          `INSERT INTO server_secrets VALUES ('secret-key-previous-fingerprint', '${deriveKeys(OLD_KEY).fingerprint}', 0);`,
      },
      database,
    );
    await expect(start(url, { secretKey: NEW_KEY })).rejects.toThrow(
      /^Webhook secrets of this database are still sealed with the previous secret key \(.{12}\): start with it as the previous key as well \(--previous-secret-key-file or SWITCHBOARD_PREVIOUS_SECRET_KEY\) until `switchboard status` says the secret key rotation is done\.$/,
    );
  });
});

const noCluster = missing ?? redisMissing();
if (noCluster) console.warn(`Skipping the secret key rotation test of two nodes: ${noCluster}`);

describe.skipIf(noCluster !== undefined)('on two nodes sharing PostgreSQL and Redis', () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  const dataDirs: string[] = [];
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  }, 60_000);
  afterAll(async () => {
    postgres?.stop();
    await redis?.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  /** The log lines of every node, by message. */
  const lines: { msg: string; node: number; [field: string]: unknown }[] = [];
  const startNode = (
    node: number,
    databaseUrl: string,
    keys: Pick<ServerOptions, 'secretKey' | 'previousSecretKey'>,
  ) => {
    const dataDir = mkdtempSync(join(tmpdir(), `switchboard-rotate-node-${node}-`));
    dataDirs.push(dataDir);
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push({ ...JSON.parse(line), node }) });
    return startServer({
      dataDir,
      databaseUrl,
      redisUrl: redis.url,
      ...keys,
      port: 0,
      logger,
      passwordHashing: 'fast',
    });
  };
  const said = (msg: string) => lines.filter((line) => line.msg.startsWith(msg));

  it('switches once both nodes hold the new key, seals again once, and never writes what a node cannot read', async () => {
    const url = postgres.url(postgres.createDatabase());
    let a = await startNode(1, url, { secretKey: OLD_KEY });
    let b = await startNode(2, url, { secretKey: OLD_KEY });
    const world = await registerWorld(client(a.url), receiver);

    // B restarts with both keys first: A holds the old one alone, so nothing switches, and what B writes A reads.
    await b.close();
    b = await startNode(2, url, { secretKey: NEW_KEY, previousSecretKey: OLD_KEY });
    await b.runSecretKeyRotation();
    expect(said('secret key rotation: waiting for every node to hold the new key')).toHaveLength(1);
    expect(await secretKeyStatus(b, world.owner)).toMatchObject({ rotation: 'waiting', pending: 0 });
    const onB = await registerWorld(client(b.url), receiver);
    expect(await deliversSigned(a, onB, receiver)).toBe(true);
    expect((await client(a.url).get('/v1/whoami', { token: onB.owner.token })).status).toBe(200);

    // A restarts with both keys too: the two look at once, one switches and seals again, both say it is done.
    await a.close();
    a = await startNode(1, url, { secretKey: NEW_KEY, previousSecretKey: OLD_KEY });
    await Promise.all([a.runSecretKeyRotation(), b.runSecretKeyRotation()]);
    // Each says it is done at its next look (its timer's, every 2 s), the two claims to re-seal taking turns.
    await a.runSecretKeyRotation();
    await b.runSecretKeyRotation();
    expect(said('secret key rotation: every node holds the new key')).toHaveLength(1);
    const resealed = said('secret key rotation: webhook secrets sealed again');
    expect(resealed.map((line) => line.resealed)).toEqual([2]);
    expect(
      said('secret key rotation done')
        .map((line) => line.node)
        .sort(),
    ).toEqual([1, 2]);
    expect(await secretKeyStatus(a, world.owner)).toMatchObject({ replaced: null, pending: 0, rotation: 'done' });
    for (const [from, endpoint] of [
      [a, onB],
      [b, world],
    ] as const)
      expect(await deliversSigned(from, endpoint, receiver)).toBe(true);

    // A node with the old key alone cannot join any more.
    await expect(startNode(3, url, { secretKey: OLD_KEY })).rejects.toThrow(
      'This database has moved to a new secret key',
    );

    // Both on the new key alone.
    await Promise.all([a.close(), b.close()]);
    a = await startNode(1, url, { secretKey: NEW_KEY });
    b = await startNode(2, url, { secretKey: NEW_KEY });
    const signedIn = await client(b.url).post('/v1/auth/login', {
      body: { email: world.owner.email, password: 'correct horse battery' },
    });
    world.owner = { ...world.owner, token: signedIn.body.token };
    expect(await deliversSigned(a, world, receiver)).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });
});
