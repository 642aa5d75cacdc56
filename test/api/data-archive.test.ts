import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/node.js';
import {
  ArchiveRefusedError,
  exportDataDir,
  importArchive,
  type Manifest,
  writeArchiveFile,
} from '../../server/data-archive/index.js';
import { END_OF_ARCHIVE, fileHeader, padding } from '../../server/data-archive/tar.js';
import { readVersion } from '../../server/version.js';
import { downloadBackup, tableContents } from '../support/data-archives.js';
import {
  addMember,
  createRoom,
  mintChatToken,
  mintRtcToken,
  projectWithKeys,
  registerUser,
  registerWebhook,
  sendMessage,
} from '../support/factories.js';
import { client } from '../support/http.js';
import { makeDataDir, manualClock, startTestServer, type TestServer } from '../support/server.js';
import { connectSignaling } from '../support/socket-client.js';
import { withTestDatabase } from '../support/test-database.js';
import { sqliteOnly, testStore } from '../support/test-store.js';
import { startReceiver } from '../support/webhook-receiver.js';

const clock = manualClock();
const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-archive-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const started = async (server: Promise<TestServer>) => {
  const s = await server;
  cleanup.push(() => s.dispose());
  return s;
};

describe('backup → import round trip', () => {
  it('restores every table, a pending delivery, signing keys, webhook secrets and attachment bytes', async () => {
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    receiver.reply({ status: 500, body: 'down for now' });
    const source = await started(startTestServer({ clock }));
    const api = client(source.url);

    // Something in every table.
    const { owner, project, keys } = await projectWithKeys(api);
    await addMember(api, project.id, owner, await registerUser(api), 'DEVELOPER');
    // A fault injected into staging, whose traffic this test leaves alone.
    const fault = await api.post(`/v1/projects/${project.id}/environment/faults?environment=staging`, {
      token: owner.token,
      body: { kind: 'webhook.duplicate' },
    });
    expect(fault.status).toBe(201);
    // And staging's clock an hour ahead.
    const advanced = await api.post(`/v1/projects/${project.id}/environment/clock/advance?environment=staging`, {
      token: owner.token,
      body: { seconds: 3600 },
    });
    expect(advanced.status).toBe(200);
    // A recording of development, stopped before the backup, with what it took.
    const recordings = `/v1/projects/${project.id}/environment/recordings`;
    const recording = await api.post(recordings, { token: owner.token, body: {} });
    expect(recording.status).toBe(201);
    const key = keys.development;
    const room = await createRoom(api, key);
    const rtc = (await mintRtcToken(api, key, room.id)).token;
    expect(
      (await api.post('/v1/telemetry/events', { token: rtc, body: { events: [{ type: 'joined' }] } })).status,
    ).toBe(202);
    const signaling = connectSignaling(source.url, rtc);
    await signaling.next('joined');
    signaling.close();
    await signaling.closed;
    expect((await api.get('/v1/rooms/room_missing', { token: key })).status).toBe(404);
    const webhook = await registerWebhook(api, project.id, owner, { url: receiver.url, events: ['message.created'] });
    const alice = await mintChatToken(api, key, 'alice');
    const conversation = (
      await api.post('/v1/chat/conversations', {
        token: alice,
        body: { name: 'general', members: [{ userId: 'bob' }] },
      })
    ).body;
    const message = await sendMessage(api, alice, conversation.id, { text: 'hello' });
    await api.post(`/v1/chat/messages/${message.id}/reactions`, { token: alice, body: { emoji: '👍' } });
    await api.post(`/v1/chat/messages/${message.id}/read`, { token: alice, body: {} });
    const bytes = randomBytes(3000);
    const attachment = (
      await api.post(`/v1/chat/conversations/${conversation.id}/attachments`, {
        token: alice,
        body: { filename: 'notes.bin', contentType: 'application/octet-stream', size: bytes.length },
      })
    ).body;
    const put = await fetch(attachment.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(put.status).toBe(200);
    expect((await api.post(`/v1/chat/attachments/${attachment.id}/complete`, { token: alice })).status).toBe(200);
    const stream = (await api.post('/v1/live-streams', { token: key, body: { title: 'Launch' } })).body;
    expect(
      (await api.post(`/v1/live-streams/${stream.id}/viewer-tokens`, { token: key, body: { identity: 'viewer' } }))
        .status,
    ).toBe(201);
    // The delivery of message.created fails once and waits for its retry.
    await source.runDueWebhooks();
    expect(receiver.requests).toHaveLength(1);
    const stopped = await api.post(`${recordings}/${recording.body.id}/stop`, { token: owner.token });
    expect(stopped.body.entries).toBeGreaterThan(0);
    // A snapshot of development as it is now: the backup carries it, and a restore can come back to it.
    const snapshot = await api.post(`/v1/projects/${project.id}/environment/snapshots`, {
      token: owner.token,
      body: { name: 'before-backup' },
    });
    expect(snapshot.status).toBe(201);

    const archive = join(tempDir(), 'backup.tar.gz');
    await downloadBackup(source, archive);
    const before = await tableContents(source);
    // On SQLite attachment bytes are files of the data folder; attachment_chunks holds them only on PostgreSQL.
    const empty = Object.entries(before).filter(([table, rows]) => rows.length === 0 && table !== 'attachment_chunks');
    expect(
      empty.map(([table]) => table),
      'tables the test leaves empty: give each a row above',
    ).toEqual([]);
    const pending = (
      await api.get(`/v1/projects/${project.id}/webhooks/${webhook.id}/deliveries?environment=development`, {
        token: owner.token,
      })
    ).body.data;
    expect(pending.map((d: { status: string }) => d.status)).toEqual(['PENDING']);

    // Into a data folder: how a laptop restores any archive, its own or a team server's.
    const restoredDir = makeDataDir();
    const manifest = await importArchive(archive, restoredDir, { replace: false, switchboardVersion: readVersion() });
    expect(manifest).toMatchObject({ format: 'switchboard-archive', version: 1, switchboardVersion: readVersion() });
    expect(readFileSync(join(restoredDir, 'attachments', project.id, attachment.id))).toEqual(bytes);
    await source.close();

    let restored: TestServer;
    if (testStore() === 'sqlite') {
      expect(await tableContents({ dataDir: restoredDir })).toEqual(before);
      // Offline, the stopped server's folder exports to the same contents.
      const exported = join(tempDir(), 'export.tar.gz');
      await exportDataDir(source.dataDir, exported, { switchboardVersion: readVersion(), createdAt: new Date() });
      const fromExport = makeDataDir();
      cleanup.push(() => rmSync(fromExport, { recursive: true, force: true }));
      await importArchive(exported, fromExport, { replace: false, switchboardVersion: readVersion() });
      expect(await tableContents({ dataDir: fromExport })).toEqual(await tableContents({ dataDir: source.dataDir }));
      expect(readFileSync(join(fromExport, 'attachments', project.id, attachment.id))).toEqual(bytes);

      receiver.reply({ status: 200, body: 'ok' });
      restored = await started(startTestServer({ dataDir: restoredDir, clock }));
    } else {
      cleanup.push(() => rmSync(restoredDir, { recursive: true, force: true }));
      // The laptop's folder holds the rows of the server's database (its attachment chunks as files, its keys its own;
      // the history of its schema is its own database's).
      const inFolder = ['__drizzle_migrations', 'server_secrets', 'attachment_chunks', ...ABOUT_THE_DATABASE];
      expect(comparable(await tableContents({ dataDir: restoredDir }), inFolder)).toEqual(comparable(before, inFolder));

      // Into a new database, as a team moves its server: restored before the new server listens.
      receiver.reply({ status: 200, body: 'ok' });
      restored = await started(startTestServer({ clock, importArchive: { file: archive, replace: false } }));
      expect(restored.imported).toMatchObject({ format: 'switchboard-archive', version: 1 });
      expect(restored.imported?.copied.get('attachment_chunks')).toBe(1);
      // Every row, but the server's own keys (not copied), the endpoints' secrets (sealed again with its key, whose id
      // they record) and the history of the database's schema (its own).
      const notCopied = ['server_secrets', ...ABOUT_THE_DATABASE];
      expect(comparable(await tableContents(restored), notCopied)).toEqual(comparable(before, notCopied));
    }
    const api2 = client(restored.url);
    // Sessions, keys, RTC and chat tokens made by the old server still verify (on PostgreSQL, as both servers were
    // given the same secret key, which their signing keys derive from).
    expect((await api2.get(`/v1/projects/${project.id}`, { token: owner.token })).status).toBe(200);
    expect((await api2.get('/v1/whoami', { token: key })).status).toBe(200);
    expect((await api2.post('/v1/telemetry/events', { token: rtc, body: { events: [{ type: 'back' }] } })).status).toBe(
      202,
    );
    const listed = await api2.get(`/v1/chat/conversations/${conversation.id}/messages`, { token: alice });
    expect(listed.body.data.map((m: { text: string }) => m.text)).toEqual(['hello']);
    // The attachment's bytes come back through a download URL.
    const download = await api2.get(`/v1/chat/attachments/${attachment.id}/download-url`, { token: alice });
    expect(Buffer.from(await (await fetch(download.body.url)).arrayBuffer())).toEqual(bytes);
    // The pending delivery goes out from the restored server, signed with the same secret.
    clock.advance(60 * 60 * 1000);
    await restored.runDueWebhooks();
    const [, delivered] = await receiver.waitForRequests(2);
    expect(JSON.parse(delivered.rawBody.toString()).data.message.id).toBe(message.id);
    expect(
      verifyWebhook(webhook.secret, delivered.headers['service-signature'] as string, delivered.rawBody, {
        now: clock.now(),
      }),
    ).toBe(true);

    if (testStore() === 'postgres') {
      // A database that holds data is never merged into: refused, unless told to replace it.
      await restored.close();
      const again = (replace: boolean) =>
        startTestServer({ dataDir: restored.dataDir, clock, importArchive: { file: archive, replace } });
      await expect(again(false)).rejects.toThrow(
        /The database already holds 2 accounts and 1 project; an import never merges into it\. Pass --replace/,
      );
      const replaced = await started(again(true));
      expect(replaced.imported?.copied.get('messages')).toBe(1);
      const api3 = client(replaced.url);
      expect((await api3.get(`/v1/projects/${project.id}`, { token: owner.token })).status).toBe(200);
    }
  });
});

/**
 * Table contents to compare across stores and servers: without the tables named, and with the webhook endpoints'
 * signing secrets left out (each server or archive seals them with its own key).
 */
/** The tables about the database itself, which each database keeps its own of (db/schema-history.ts). */
const ABOUT_THE_DATABASE = ['schema_migrations', 'server_versions'];

function comparable(contents: Record<string, string[]>, without: string[]): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(contents)
      .filter(([table]) => !without.includes(table))
      .map(([table, rows]) => [
        table,
        table === 'webhook_endpoints'
          ? rows
              .map((row) =>
                JSON.stringify({ ...JSON.parse(row), secret_ciphertext: 'sealed', secret_key_id: 'its key' }),
              )
              .sort()
          : rows,
      ]),
  );
}

/** An archive of a data folder with one account and project in it, written offline. */
async function archiveOfOneProject(): Promise<{ file: string; projectName: string }> {
  const server = await startTestServer();
  const api = client(server.url);
  const owner = await registerUser(api);
  const projectName = `Archived ${Math.random()}`;
  await api.post('/v1/projects', { token: owner.token, body: { name: projectName } });
  await server.close();
  cleanup.push(() => rmSync(server.dataDir, { recursive: true, force: true }));
  const file = join(tempDir(), 'one.tar.gz');
  await exportDataDir(server.dataDir, file, { switchboardVersion: readVersion(), createdAt: new Date() });
  return { file, projectName };
}

const importInto = (file: string, dataDir: string, replace = false) =>
  importArchive(file, dataDir, { replace, switchboardVersion: readVersion() });

describe.skipIf(sqliteOnly('imports into and exports of a data folder'))('import', () => {
  it('never merges into a folder that holds data: it refuses, unless told to replace', async () => {
    const { file, projectName } = await archiveOfOneProject();
    const target = await startTestServer();
    cleanup.push(() => rmSync(target.dataDir, { recursive: true, force: true }));
    const owner = await registerUser(client(target.url));
    // Not while a server uses the folder, replace or not.
    await expect(importInto(file, target.dataDir, true)).rejects.toThrow(/in use by another Switchboard server/);
    await target.close();
    await expect(importInto(file, target.dataDir)).rejects.toThrow(
      /already holds 1 account and 0 projects; an import never merges into it\. Pass --replace/,
    );
    expect((await tableContents(target)).users).toHaveLength(1);

    await importInto(file, target.dataDir, true);
    const after = await tableContents(target);
    expect(after.users.join()).not.toContain(owner.email);
    expect(after.projects.join()).toContain(projectName);
  });

  it('takes a folder where a server started but nobody signed up', async () => {
    const { file, projectName } = await archiveOfOneProject();
    const unused = await startTestServer();
    cleanup.push(() => rmSync(unused.dataDir, { recursive: true, force: true }));
    await unused.close();
    await importInto(file, unused.dataDir);
    expect((await tableContents(unused)).projects.join()).toContain(projectName);
  });

  it('refuses a newer format version, naming both versions, and changes nothing', async () => {
    const file = join(tempDir(), 'newer.tar.gz');
    const manifest = {
      format: 'switchboard-archive',
      version: 2,
      switchboardVersion: '9.0.0',
      createdAt: new Date().toISOString(),
      entries: [],
    } as unknown as Manifest;
    await writeArchiveFile({ entries: [], dispose() {} }, manifest, file);
    const dataDir = makeDataDir();
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    await expect(importInto(file, dataDir)).rejects.toThrow(
      `This archive is format version 2 (written by Switchboard 9.0.0); this Switchboard (${readVersion()}) reads versions up to 1. Upgrade Switchboard to import it.`,
    );
    expect(readdirSync(dataDir).filter((name) => !name.startsWith('switchboard.lock'))).toEqual([]);
  });

  it('refuses a database with a newer schema than this server knows', async () => {
    const server = await startTestServer();
    await registerUser(client(server.url));
    await server.close();
    cleanup.push(() => rmSync(server.dataDir, { recursive: true, force: true }));
    await withTestDatabase(server, (db) =>
      db.run('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)', ['future', 9e12]),
    );
    const file = join(tempDir(), 'future.tar.gz');
    await exportDataDir(server.dataDir, file, { switchboardVersion: '9.9.9', createdAt: new Date() });
    await expect(importInto(file, makeDataDir())).rejects.toThrow(
      /written by Switchboard 9\.9\.9 with a newer schema than this Switchboard .* knows\. Upgrade Switchboard/,
    );
  });

  it('refuses damaged, truncated and foreign files before touching the folder', async () => {
    const { file } = await archiveOfOneProject();
    const good = readFileSync(file);
    const dir = tempDir();
    const variants: [string, Buffer][] = [
      ['truncated', good.subarray(0, Math.floor(good.length / 2))],
      ['not gzip', Buffer.from('hello, I am not an archive')],
      ['empty gzip', gzipSync(Buffer.alloc(0))],
      [
        'another tar',
        gzipSync(
          Buffer.concat([fileHeader('notes.txt', 2, new Date()), Buffer.from('hi'), padding(2), END_OF_ARCHIVE]),
        ),
      ],
    ];
    // A flipped byte inside the database entry fails its checksum.
    const tar = gunzipSync(good);
    tar[tar.length - 2048] ^= 0xff;
    variants.push(['tampered', gzipSync(tar)]);
    for (const [name, bytes] of variants) {
      const path = join(dir, `${name}.tar.gz`);
      writeFileSync(path, bytes);
      const dataDir = makeDataDir();
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      await expect(importInto(path, dataDir), name).rejects.toThrow(ArchiveRefusedError);
      expect(
        readdirSync(dataDir).filter((n) => !n.startsWith('switchboard.lock')),
        name,
      ).toEqual([]);
    }
  });
});

describe('GET /v1/server/backup', () => {
  it('needs the admin token of the data folder: no account will do', async () => {
    const server = await started(startTestServer());
    const api = client(server.url);
    const owner = await registerUser(api);
    for (const authorization of [undefined, 'Bearer sbadmin_wrong', `Bearer ${owner.token}`]) {
      const res = await fetch(`${server.url}/v1/server/backup`, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('SERVICE_UNAUTHENTICATED');
    }
    expect(statSync(join(server.dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
  });

  it('is in the OpenAPI document', async () => {
    const server = await started(startTestServer());
    const document = (await client(server.url).get('/openapi.json')).body;
    expect(document.paths['/v1/server/backup'].get.security).toEqual([{ adminToken: [] }]);
  });
});
