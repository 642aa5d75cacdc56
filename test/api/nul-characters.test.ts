import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../db/connection.js';
import { describeReplaced } from '../../db/holdable-text.js';
import Database from '../../db/sqlite-driver.js';
import { exportDataDir, importArchive } from '../../server/data-archive/index.js';
import { parseSeed } from '../../server/seeds/parse.js';
import { readVersion } from '../../server/version.js';
import { downloadBackup } from '../support/data-archives.js';
import {
  createConversation,
  createRoom,
  expectError,
  mintChatToken,
  mintRtcToken,
  projectWithKeys,
  sendMessage,
  type TestUser,
} from '../support/factories.js';
import { type ApiResponse, client } from '../support/http.js';
import { startTestServer } from '../support/server.js';
import { connectRealtime, connectSignaling } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';

// U+0000 is refused wherever a client's text comes in, with the same 400 on SQLite and on PostgreSQL (whose `text`
// cannot hold it): this file runs on both stores (the `postgres` vitest project).
const t = useTestServer();
const NUL = '\u0000';

let owner: TestUser;
let projectId: string;
let key: string;
beforeAll(async () => {
  const ctx = await projectWithKeys(t.api);
  owner = ctx.owner;
  projectId = ctx.project.id;
  key = ctx.keys.development;
});

/** A 400 SERVICE_VALIDATION_FAILED that names `path` in its message and in `fields`. */
function expectNulRefused(res: ApiResponse, where: string, path: string) {
  expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
  expect(res.body.message).toBe(
    `Invalid request ${where}: ${path.replaceAll(NUL, '\\u0000')}: ${
      path.includes(NUL) ? 'field names must not' : 'must not'
    } contain a NUL character (U+0000).`,
  );
  expect(res.body.fields).toEqual([{ path, message: expect.stringContaining('NUL character (U+0000)') }]);
}

describe('a NUL character in a JSON body', () => {
  it('is refused naming the field: a room name, a chat message, a nested field', async () => {
    expectNulRefused(await t.api.post('/v1/rooms', { token: key, body: { name: NUL } }), 'body', 'name');
    const conversation = await createConversation(t.api, key, { members: ['alice'] });
    const messages = `/v1/chat/conversations/${conversation.id}/messages`;
    const message = await t.api.post(messages, { token: key, body: { senderId: 'alice', text: `hi${NUL}there` } });
    expectNulRefused(message, 'body', 'text');
    // Nothing was stored.
    expect((await t.api.get(messages, { token: key })).body.data).toEqual([]);
    const members = await t.api.post('/v1/chat/conversations', {
      token: key,
      body: { name: 'c', members: [{ userId: 'alice' }, { userId: `b${NUL}b` }] },
    });
    expectNulRefused(members, 'body', 'members.1.userId');
  });

  it('is refused in a field name, before the schema sees it', async () => {
    const res = await t.api.post('/v1/rooms', { token: key, body: { name: 'ok', [`x${NUL}`]: 1 } });
    expectNulRefused(res, 'body', `x${NUL}`);
  });

  it('is refused on the project routes of a session too', async () => {
    const res = await t.api.patch(`/v1/projects/${projectId}`, { token: owner.token, body: { name: `a${NUL}` } });
    expectNulRefused(res, 'body', 'name');
  });
});

describe('a NUL character (%00) in the URL', () => {
  it('is refused in a path parameter, before authentication looks the project up', async () => {
    expectNulRefused(await t.api.get('/v1/projects/%00', { token: owner.token }), 'path', 'id');
    expectNulRefused(await t.api.get('/v1/projects/%00/audit-logs', { token: owner.token }), 'path', 'id');
    const keyPath = `/v1/projects/${projectId}/api-keys/key%00`;
    expectNulRefused(await t.api.delete(keyPath, { token: owner.token }), 'path', 'keyId');
    expectNulRefused(await t.api.get('/v1/rooms/room%00', { token: key }), 'path', 'id');
    // Even without a credential: the path is read first.
    expectNulRefused(await t.api.get('/v1/projects/%00/environment/triggers'), 'path', 'id');
  });

  it('is refused in a query value, a repeated one, and a query name', async () => {
    const logs = `/v1/projects/${projectId}/audit-logs`;
    expectNulRefused(await t.api.get(`${logs}?cursor=%00`, { token: owner.token }), 'query', 'cursor');
    const faults = `/v1/projects/${projectId}/environment/faults`;
    expectNulRefused(await t.api.get(`${faults}?environment=a%00`, { token: owner.token }), 'query', 'environment');
    expectNulRefused(await t.api.get(`/v1/rooms?a=1&a=%00`, { token: key }), 'query', 'a.1');
    expectNulRefused(await t.api.get(`/v1/rooms?a%00=1`, { token: key }), 'query', `a${NUL}`);
  });

  it('is refused on the attachment content URLs, outside the route table', async () => {
    const res = await t.api.get('/v1/chat/attachments/att%00/content?expires=1&signature=x');
    expectNulRefused(res, 'path', 'attachmentId');
    const query = await t.api.put('/v1/chat/attachments/att_1/content?signature=%00', { rawBody: 'x' });
    expectNulRefused(query, 'query', 'signature');
  });
});

describe('a NUL character in a socket message', () => {
  it('is an invalid_message naming the field on the realtime socket, which stays open', async () => {
    const conversation = await createConversation(t.api, key, { members: ['alice'] });
    const alice = connectRealtime(t.server.url, await mintChatToken(t.api, key, 'alice'));
    try {
      await alice.next('connected');
      alice.send({ type: 'typing.start', conversationId: `${conversation.id}${NUL}` });
      expect(await alice.next('error')).toEqual({
        type: 'error',
        code: 'invalid_message',
        message: 'Invalid message: conversationId: must not contain a NUL character (U+0000)',
      });
      alice.send({ type: 'ping' });
      await alice.next('pong');
    } finally {
      alice.close();
    }
  });

  it('is an invalid_message on the signaling socket', async () => {
    const room = await createRoom(t.api, key);
    const rtc = connectSignaling(t.server.url, (await mintRtcToken(t.api, key, room.id)).token);
    try {
      await rtc.next('joined');
      rtc.send({ type: 'ping', [`n${NUL}`]: 1 });
      const error = await rtc.next('error');
      expect(error.message).toBe('Invalid message: n\\u0000: field names must not contain a NUL character (U+0000)');
      expect(rtc.socket.readyState).toBe(rtc.socket.OPEN);
    } finally {
      rtc.close();
    }
  });

  it('closes a handshake whose access_token holds one with 4400', async () => {
    const socket = connectRealtime(t.server.url, `token${NUL}`);
    expect(await socket.closed).toEqual({
      code: 4400,
      reason: 'access_token must not contain a NUL character (U+0000)',
    });
  });
});

describe('a NUL character in a seed', () => {
  it('is refused naming the field, as the API would', () => {
    const seed = JSON.stringify({ user: { email: 'a@b.test', password: 'long enough pw' }, projects: [{ name: NUL }] });
    expect(() => parseSeed(seed, 'seed.json')).toThrow(
      'seed.json is not a valid seed; nothing was created:\n  projects[0].name: must not contain a NUL character (U+0000)',
    );
  });
});

describe('data that already holds a NUL character', () => {
  const cleanup: (() => unknown)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-nul-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  it('imports from an older SQLite data folder: kept on SQLite, replaced by U+FFFD on PostgreSQL and reported', async () => {
    // A data folder as an older server left it: rows written before the API refused NUL (here, straight to SQLite).
    const room = await createRoom(t.api, key);
    const conversation = await createConversation(t.api, key, { members: ['alice'] });
    const message = await sendMessage(t.api, key, conversation.id, { senderId: 'alice', text: 'hello' });
    const withRows = join(tempDir(), 'with-rows.tar.gz');
    await downloadBackup(t.server, withRows);
    const older = tempDir();
    await importArchive(withRows, older, { replace: false, switchboardVersion: readVersion() });
    const sqlite = new Database(join(older, DATABASE_FILE));
    sqlite.prepare('UPDATE messages SET text = ? WHERE id = ?').run(`hel${NUL}lo${NUL}`, message.id);
    sqlite.prepare('UPDATE rooms SET name = ? WHERE id = ?').run(`lobby${NUL}`, room.id);
    sqlite.close();
    const exported = join(tempDir(), 'older.tar.gz');
    await exportDataDir(older, exported, { switchboardVersion: readVersion(), createdAt: new Date() });

    let restored: Awaited<ReturnType<typeof startTestServer>>;
    let stored: string;
    if (t.server.databaseUrl) {
      restored = await startTestServer({ importArchive: { file: exported, replace: false } });
      stored = '\uFFFD';
      expect(restored.imported?.replaced).toEqual(
        new Map([
          ['rooms.name', 1],
          ['messages.text', 1],
        ]),
      );
      expect(describeReplaced(restored.imported?.replaced ?? new Map())).toBe(
        '2 values held a NUL character (U+0000), which PostgreSQL cannot store, replaced by U+FFFD: messages.text 1, ' +
          'rooms.name 1',
      );
    } else {
      // SQLite holds it: a data folder keeps what it had.
      const target = tempDir();
      await importArchive(exported, target, { replace: false, switchboardVersion: readVersion() });
      restored = await startTestServer({ dataDir: target });
      stored = NUL;
    }
    cleanup.push(() => restored.dispose());
    const api = client(restored.url);
    const messages = await api.get(`/v1/chat/conversations/${conversation.id}/messages`, { token: key });
    expect(messages.body.data.map((m: { text: string }) => m.text)).toEqual([`hel${stored}lo${stored}`]);
    expect((await api.get(`/v1/rooms/${room.id}`, { token: key })).body.name).toBe(`lobby${stored}`);
  });
});
