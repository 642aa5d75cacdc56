// The upgrade that docs/deployment.md ("Upgrading") documents, from the previous release (test/support/previous-
// release.ts, built from git) to this checkout's build: a backup first; on PostgreSQL a rolling upgrade, a node of each
// release on one database with Redis between them, both serving during the overlap; then the way back, the backup
// restored under the previous release. On SQLite, one server's data folder upgraded and taken back.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StartedChild } from '../support/child-process.js';
import { clusterMissing, nodeEnvironment, serve } from '../support/cluster.js';
import { createConversation, createKey, createProject, mintChatToken, registerUser } from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { postgresBinaries } from '../support/postgres.js';
import { buildPreviousRelease, type PreviousRelease } from '../support/previous-release.js';
import { type RedisServer, startRedis } from '../support/redis.js';
import { connectRealtime, type SocketClient } from '../support/socket-client.js';
import { createDatabase, TEST_SECRET_KEY } from '../support/test-store.js';

const missing = clusterMissing(inject('postgresUrl'));
if (missing) console.warn(`Skipping the upgrade tests: ${missing}`);

/** This checkout's build (test/cli/build.global-setup.ts). */
const CURRENT = resolve('dist/switchboard.mjs');
const run = promisify(execFile);

const folders: string[] = [];
const children: StartedChild[] = [];
const sockets: SocketClient[] = [];
function folder(prefix: string): string {
  const made = mkdtempSync(join(tmpdir(), prefix));
  folders.push(made);
  return made;
}

/** `switchboard serve` of `bin` on a free port; resolves once it answers `/healthz`. */
async function startNode(bin: string, dataDir: string, env: NodeJS.ProcessEnv, extra: string[] = []) {
  const { child, url } = await serve(0, dataDir, env, bin, extra);
  children.push(child);
  return { child, url, api: client(url) };
}

/** The texts of a conversation's messages, oldest first (one page: these tests write a few). */
async function texts(api: Client, key: string, conversationId: string): Promise<string[]> {
  const page = await api.get(`/v1/chat/conversations/${conversationId}/messages?limit=100`, { token: key });
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return (page.body.data as { text: string }[]).map((message) => message.text);
}

async function post(api: Client, key: string, conversationId: string, senderId: string, text: string) {
  const res = await api.post(`/v1/chat/conversations/${conversationId}/messages`, {
    token: key,
    body: { text, senderId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** A member's realtime socket on one node, once connected. */
async function member(api: Client, key: string, userId: string, nodeUrl: string): Promise<SocketClient> {
  const socket = connectRealtime(nodeUrl, await mintChatToken(api, key, userId));
  sockets.push(socket);
  await socket.next('connected');
  return socket;
}

/** The text of the next `message.created` the socket receives. */
async function nextText(socket: SocketClient): Promise<string> {
  return (await socket.next('message.created')).data.message.text;
}

describe.skipIf(missing !== undefined)('upgrading from the previous release', () => {
  let previous: PreviousRelease;
  beforeAll(() => {
    const started = performance.now();
    previous = buildPreviousRelease();
    console.log(
      `Built the previous release (${previous.commit.slice(0, 7)}) in ${Math.round(performance.now() - started)} ms`,
    );
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.allSettled(children.map((child) => child.stop('SIGTERM')));
    for (const made of folders) rmSync(made, { recursive: true, force: true });
    previous?.remove();
  });

  describe('on PostgreSQL, with Redis: a rolling upgrade, then the way back', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('runs a node of each release on one database, both serving, then restores the backup under the previous release', async () => {
      const admin = inject('postgresUrl') as string;
      const databaseUrl = await createDatabase(admin);
      const settings = (url: string) =>
        nodeEnvironment({
          SWITCHBOARD_DATABASE_URL: url,
          SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY,
          SWITCHBOARD_REDIS_URL: redis.url,
        });

      // The previous release, in service: an owner, a project, a conversation with a message.
      const a = await startNode(previous.bin, folder('switchboard-old-node-'), settings(databaseUrl));
      const owner = await registerUser(a.api);
      const project = await createProject(a.api, owner);
      const { key } = await createKey(a.api, project.id, owner, 'development');
      const conversation = await createConversation(a.api, key, { members: ['alice', 'bob'] });
      await post(a.api, key, conversation.id, 'alice', 'before the backup');

      // 1. The backup: pg_dump of the database (docs/deployment.md), while the node serves.
      const bin = postgresBinaries() as string;
      const dump = join(folder('switchboard-dump-'), 'switchboard.dump');
      await run(join(bin, 'pg_dump'), ['--format=custom', '--file', dump, databaseUrl]);
      await post(a.api, key, conversation.id, 'alice', 'after the backup');

      // 2. A node of this release joins: it applies its migrations while the previous release keeps serving.
      const b = await startNode(CURRENT, folder('switchboard-new-node-'), settings(databaseUrl));
      const alice = await member(a.api, key, 'alice', a.url);
      const bob = await member(b.api, key, 'bob', b.url);
      // Both serve, and realtime crosses between them through Redis, each way.
      await post(b.api, key, conversation.id, 'bob', 'through the new node');
      expect(await nextText(alice)).toBe('through the new node');
      await post(a.api, key, conversation.id, 'alice', 'through the old node');
      expect(await nextText(bob)).toBe('through the new node');
      expect(await nextText(bob)).toBe('through the old node');
      expect(await texts(a.api, key, conversation.id)).toEqual(await texts(b.api, key, conversation.id));

      // 3. The previous release's node stops; everything written on either is there.
      await a.child.stop('SIGTERM');
      expect(await texts(b.api, key, conversation.id)).toEqual([
        'before the backup',
        'after the backup',
        'through the new node',
        'through the old node',
      ]);
      expect((await b.api.get(`/v1/projects/${project.id}`, { token: owner.token })).status).toBe(200);

      // 4. The way back over expand migrations: the previous release started again on the upgraded database serves
      // all of it, and writes beside this release's node.
      const again = await startNode(previous.bin, folder('switchboard-old-node-'), settings(databaseUrl));
      await post(again.api, key, conversation.id, 'alice', 'on the previous release again');
      expect(await texts(again.api, key, conversation.id)).toEqual(await texts(b.api, key, conversation.id));
      await again.child.stop('SIGTERM');

      // 5. The way back in every case: every node stopped, the backup restored into an empty database, the previous release on it.
      await b.child.stop('SIGTERM');
      const restoredUrl = await createDatabase(admin);
      await run(join(bin, 'pg_restore'), ['--exit-on-error', '--no-owner', '--dbname', restoredUrl, dump]);
      const back = await startNode(previous.bin, folder('switchboard-old-node-'), settings(restoredUrl));
      // What the backup held, with the owner's session: nothing written after it.
      expect((await back.api.get(`/v1/projects/${project.id}`, { token: owner.token })).status).toBe(200);
      expect(await texts(back.api, key, conversation.id)).toEqual(['before the backup']);
      await post(back.api, key, conversation.id, 'alice', 'after going back');
    });
  });

  it('on SQLite: upgrades a data folder in place, and goes back with the backup archive', async () => {
    const dataDir = folder('switchboard-data-');
    const home = folder('switchboard-home-');
    const env = nodeEnvironment({ HOME: home });

    const old = await startNode(previous.bin, dataDir, env);
    const owner = await registerUser(old.api);
    const project = await createProject(old.api, owner);
    const { key } = await createKey(old.api, project.id, owner, 'development');
    const conversation = await createConversation(old.api, key, { members: ['alice'] });
    await post(old.api, key, conversation.id, 'alice', 'before the backup');
    // 1. The backup, through the running server, with the previous release's own command.
    const archive = join(folder('switchboard-backup-'), 'before-upgrade.tar.gz');
    await run(process.execPath, [previous.bin, '--url', old.url, 'backup', archive, '--data-dir', dataDir], { env });
    await old.child.stop('SIGTERM');

    // 2. This release on the same folder: it migrates, and serves what was there.
    const current = await startNode(CURRENT, dataDir, env);
    await post(current.api, key, conversation.id, 'alice', 'after the upgrade');
    expect(await texts(current.api, key, conversation.id)).toEqual(['before the backup', 'after the upgrade']);
    await current.child.stop('SIGTERM');

    // 3. The way back: the previous release restores the archive over the upgraded folder.
    const back = await startNode(previous.bin, dataDir, env, ['--import', archive, '--replace']);
    expect(await texts(back.api, key, conversation.id)).toEqual(['before the backup']);
    expect((await back.api.get(`/v1/projects/${project.id}`, { token: owner.token })).status).toBe(200);
  });
});
