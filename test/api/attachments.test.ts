import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { storedAttachment } from '../support/attachment-bytes.js';
import { createConversation, expectError, mintChatToken, projectWithKeys } from '../support/factories.js';
import type { ApiResponse } from '../support/http.js';
import { whileRefusing } from '../support/refused-writes.js';
import { makeDataDir, manualClock, startTestServer } from '../support/server.js';
import { sqliteOnly, testStore } from '../support/test-store.js';
import { useTestServer } from '../support/use-test-server.js';

const clock = manualClock();
const t = useTestServer({ clock });
const MINUTE = 60_000;

/** A conversation of alice (ADMIN) and bob; carol is not in it. */
async function setup(environment: 'development' | 'staging' | 'production' = 'development') {
  const { owner, keys, project } = await projectWithKeys(t.api);
  const key = keys[environment];
  const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((u) => mintChatToken(t.api, key, u)));
  const { id: conversationId } = await createConversation(t.api, alice, { members: ['bob'] });
  return { owner, project, keys, key, alice, bob, carol, conversationId };
}

/** A request to a signed URL: no Authorization header, raw bytes. */
async function raw(
  method: 'GET' | 'PUT',
  url: string,
  options: { body?: Buffer; contentType?: string } = {},
): Promise<ApiResponse & { bytes: Buffer }> {
  const headers: Record<string, string> = options.contentType ? { 'content-type': options.contentType } : {};
  const res = await fetch(url, { method, headers, body: options.body });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    body = undefined;
  }
  return { status: res.status, body, headers: res.headers, bytes };
}

const declare = (token: string, conversationId: string, body: Record<string, unknown>) =>
  t.api.post(`/v1/chat/conversations/${conversationId}/attachments`, { token, body });
const complete = (token: string, id: string) => t.api.post(`/v1/chat/attachments/${id}/complete`, { token });
const downloadUrl = (token: string, id: string) => t.api.get(`/v1/chat/attachments/${id}/download-url`, { token });

/** Creates, uploads and (unless told not to) completes an attachment of `bytes`. */
async function uploaded(token: string, conversationId: string, bytes: Buffer, completeIt = true) {
  const created = await declare(token, conversationId, {
    filename: 'notes.txt',
    contentType: 'text/plain',
    size: bytes.length,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const put = await raw('PUT', created.body.uploadUrl, { body: bytes, contentType: 'text/plain' });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  if (completeIt) expect((await complete(token, created.body.id)).status).toBe(200);
  return created.body as { id: string; uploadUrl: string };
}

/** The bytes the server keeps for the attachment (a file, or rows on PostgreSQL); undefined when none. */
const storedOf = (projectId: string, attachmentId: string) => storedAttachment(t.server, projectId, attachmentId);

describe('attachments: the upload and download flow', () => {
  it('creates, takes the raw bytes at the signed URL, completes, and gives them back identical to any member', async () => {
    const { project, alice, bob, conversationId } = await setup();
    const bytes = randomBytes(300_000);
    const filename = 'résumé "final" ✓.pdf';
    const created = await declare(alice, conversationId, {
      filename,
      contentType: 'Application/PDF',
      size: bytes.length,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      conversationId,
      uploaderId: 'alice',
      filename,
      contentType: 'application/pdf',
      size: bytes.length,
      status: 'PENDING',
      sha256: null,
      messageId: null,
      completedAt: null,
    });
    expect(created.body.id).toMatch(/^att_/);
    expect(created.body.uploadUrl.startsWith(`${t.server.url}/v1/chat/attachments/${created.body.id}/content?`)).toBe(
      true,
    );
    expect(Date.parse(created.body.uploadExpiresAt) - clock.now()).toBe(15 * MINUTE);
    expect(created.body.uploadUrl).not.toContain('r%C3%A9sum'); // the filename is never part of a URL or path

    expectError(await downloadUrl(alice, created.body.id), 409, 'SERVICE_ATTACHMENT_NOT_COMPLETED');

    const put = await raw('PUT', created.body.uploadUrl, { body: bytes, contentType: 'application/pdf' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ id: created.body.id, status: 'UPLOADED' });
    expect(put.body.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect((await storedOf(project.id, created.body.id))?.equals(bytes)).toBe(true);

    const completed = await complete(alice, created.body.id);
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body).toMatchObject({ status: 'COMPLETED', completedAt: new Date(clock.now()).toISOString() });
    expect((await complete(alice, created.body.id)).body.status).toBe('COMPLETED'); // twice is harmless

    const link = await downloadUrl(bob, created.body.id);
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(Date.parse(link.body.expiresAt) - clock.now()).toBe(60 * MINUTE);
    const download = await raw('GET', link.body.url);
    expect(download.status).toBe(200);
    expect(download.bytes.equals(bytes)).toBe(true);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-length')).toBe(String(bytes.length));
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="r_sum_ _final_ _.pdf"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    );
  });

  it('serves even HTML only as a download, sandboxed', async () => {
    const { alice, conversationId } = await setup();
    const html = Buffer.from('<script>alert(1)</script>');
    const created = await declare(alice, conversationId, {
      filename: 'x.html',
      contentType: 'text/html',
      size: html.length,
    });
    expect((await raw('PUT', created.body.uploadUrl, { body: html, contentType: 'text/html' })).status).toBe(200);
    await complete(alice, created.body.id);
    const download = await raw('GET', (await downloadUrl(alice, created.body.id)).body.url);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('lets a server create for a user, for nobody, and complete; refuses a chat token naming the uploader', async () => {
    const { key, alice, conversationId } = await setup();
    const forUser = await declare(key, conversationId, {
      filename: 'a.png',
      contentType: 'image/png',
      size: 3,
      uploaderId: 'alice',
    });
    expect(forUser.status).toBe(201);
    expect(forUser.body.uploaderId).toBe('alice');
    const forNobody = await declare(key, conversationId, { filename: 'a.png', contentType: 'image/png', size: 3 });
    expect(forNobody.body.uploaderId).toBeNull();
    expectError(
      await declare(alice, conversationId, { filename: 'a.png', contentType: 'image/png', size: 3, uploaderId: 'bob' }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
    await raw('PUT', forNobody.body.uploadUrl, { body: Buffer.from('abc'), contentType: 'image/png' });
    expect((await complete(key, forNobody.body.id)).body.status).toBe('COMPLETED');
  });
});

describe('attachments: what create refuses', () => {
  it('refuses bad declarations with 400 naming the field', async () => {
    const { alice, conversationId } = await setup();
    const good = { filename: 'a.txt', contentType: 'text/plain', size: 10 };
    for (const [body, field] of [
      [{ ...good, size: 25 * 1024 * 1024 + 1 }, 'size'],
      [{ ...good, size: 0 }, 'size'],
      [{ ...good, size: 1.5 }, 'size'],
      [{ ...good, contentType: 'not a type' }, 'contentType'],
      [{ ...good, contentType: 'text/plain; charset=utf-8' }, 'contentType'],
      [{ ...good, filename: '../../etc/passwd' }, 'filename'],
      [{ ...good, filename: 'a\nb.txt' }, 'filename'],
      [{ ...good, filename: '' }, 'filename'],
      [{ ...good, extra: 1 }, 'extra'],
      [{ filename: 'a.txt', contentType: 'text/plain' }, 'size'],
    ] as const) {
      const res = await declare(alice, conversationId, body);
      expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
      expect(res.body.message).toContain(field);
    }
    expect((await declare(alice, conversationId, { ...good, size: 25 * 1024 * 1024 })).status).toBe(201);
  });

  it('is 404 for a non-member and from another environment', async () => {
    const { keys, carol, conversationId } = await setup('production');
    const body = { filename: 'a.txt', contentType: 'text/plain', size: 1 };
    expectError(await declare(carol, conversationId, body), 404, 'SERVICE_CONVERSATION_NOT_FOUND');
    for (const other of [keys.development, keys.staging]) {
      expectError(await declare(other, conversationId, body), 404, 'SERVICE_CONVERSATION_NOT_FOUND');
      expectError(
        await declare(await mintChatToken(t.api, other, 'alice'), conversationId, body),
        404,
        'SERVICE_CONVERSATION_NOT_FOUND',
      );
    }
  });
});

describe('attachments: the upload URL', () => {
  it('refuses a body of another type or length, storing nothing', async () => {
    const { project, alice, conversationId } = await setup();
    const created = await declare(alice, conversationId, { filename: 'a.bin', contentType: 'image/png', size: 100 });
    const { uploadUrl, id } = created.body;
    expectError(
      await raw('PUT', uploadUrl, { body: randomBytes(100), contentType: 'text/html' }),
      415,
      'SERVICE_CONTENT_TYPE_MISMATCH',
    );
    expectError(await raw('PUT', uploadUrl, { body: randomBytes(100) }), 415, 'SERVICE_CONTENT_TYPE_MISMATCH');
    expectError(
      await raw('PUT', uploadUrl, { body: randomBytes(99), contentType: 'image/png' }),
      400,
      'SERVICE_SIZE_MISMATCH',
    );
    expectError(
      await raw('PUT', uploadUrl, { body: randomBytes(101), contentType: 'image/png' }),
      400,
      'SERVICE_SIZE_MISMATCH',
    );
    // Without a Content-Length (chunked), the bytes are counted as they stream in.
    const chunked = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(randomBytes(60));
          controller.enqueue(randomBytes(60));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(400);
    expect(((await chunked.json()) as { code: string }).code).toBe('SERVICE_SIZE_MISMATCH');

    expect(await storedOf(project.id, id)).toBeUndefined();
    expectError(await complete(alice, id), 409, 'SERVICE_ATTACHMENT_NOT_UPLOADED');

    const bytes = randomBytes(100);
    expect((await raw('PUT', uploadUrl, { body: bytes, contentType: 'image/png; charset=binary' })).status).toBe(200);
    expect((await raw('PUT', uploadUrl, { body: bytes, contentType: 'image/png' })).status).toBe(200); // a retry
    await complete(alice, id);
    expectError(
      await raw('PUT', uploadUrl, { body: randomBytes(100), contentType: 'image/png' }),
      409,
      'SERVICE_ATTACHMENT_COMPLETED',
    );
    expect((await storedOf(project.id, id))?.equals(bytes)).toBe(true);
  });

  it('keeps a completed attachment’s bytes when an upload that began before complete finishes after it', async () => {
    const { project, alice, conversationId } = await setup();
    const first = Buffer.from('first bytes');
    const { id, uploadUrl } = await uploaded(alice, conversationId, first, false);
    const second = Buffer.from('other bytes');
    let finish: (() => void) | undefined;
    const late = fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(second.subarray(0, 5));
          finish = () => {
            controller.enqueue(second.subarray(5));
            controller.close();
          };
        },
      }),
      duplex: 'half',
    } as RequestInit);
    // The server has accepted the PUT and is streaming it: to a temporary file on SQLite; into memory on PostgreSQL,
    // where nothing shows it, so the test gives it a moment (were it not there yet, the answer would be the same).
    const folder = join(t.server.dataDir, 'attachments', project.id);
    if (testStore() === 'sqlite')
      await vi.waitFor(() => expect(readdirSync(folder).some((f) => f.endsWith('.part'))).toBe(true));
    else await new Promise((resolve) => setTimeout(resolve, 200));

    const completed = await complete(alice, id);
    expect(completed.body.sha256).toBe(createHash('sha256').update(first).digest('hex'));
    finish?.();
    const answer = await late;
    expect(answer.status).toBe(409);
    expect(((await answer.json()) as { code: string }).code).toBe('SERVICE_ATTACHMENT_COMPLETED');

    const download = await raw('GET', (await downloadUrl(alice, id)).body.url);
    expect(download.bytes.toString()).toBe('first bytes');
    // The refused bytes left nothing behind.
    if (testStore() === 'sqlite') expect(readdirSync(folder)).toEqual([id]);
    expect((await storedOf(project.id, id))?.toString()).toBe('first bytes');
  });

  it('refuses a tampered, foreign-purpose or expired signature with 403', async () => {
    const { alice, conversationId } = await setup();
    const a = await declare(alice, conversationId, { filename: 'a.txt', contentType: 'text/plain', size: 2 });
    const b = await declare(alice, conversationId, { filename: 'b.txt', contentType: 'text/plain', size: 2 });
    const url = new URL(a.body.uploadUrl);
    const body = Buffer.from('hi');
    const tampered = (edit: (u: URL) => void) => {
      const copy = new URL(url);
      edit(copy);
      return copy.toString();
    };
    for (const bad of [
      tampered((u) => {
        const sig = u.searchParams.get('sig') ?? '';
        u.searchParams.set('sig', sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0')); // one hex digit changed
      }),
      tampered((u) => u.searchParams.set('sig', 'abc')),
      tampered((u) => u.searchParams.delete('sig')),
      tampered((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
      tampered((u) => u.searchParams.set('env', 'production')),
      tampered((u) => {
        u.pathname = u.pathname.replace(a.body.id, b.body.id);
      }),
    ]) {
      expectError(await raw('PUT', bad, { body, contentType: 'text/plain' }), 403, 'SERVICE_SIGNATURE_INVALID');
    }
    // An upload URL does not download, even once completed.
    expect((await raw('PUT', a.body.uploadUrl, { body, contentType: 'text/plain' })).status).toBe(200);
    await complete(alice, a.body.id);
    expectError(await raw('GET', a.body.uploadUrl), 403, 'SERVICE_SIGNATURE_INVALID');
    // And a download URL does not upload.
    const link = (await downloadUrl(alice, a.body.id)).body.url;
    expectError(await raw('PUT', link, { body, contentType: 'text/plain' }), 403, 'SERVICE_SIGNATURE_INVALID');

    clock.advance(15 * MINUTE);
    expectError(await raw('PUT', b.body.uploadUrl, { body, contentType: 'text/plain' }), 403, 'SERVICE_URL_EXPIRED');
    expect((await raw('GET', link)).status).toBe(200);
    clock.advance(45 * MINUTE);
    expectError(await raw('GET', link), 403, 'SERVICE_URL_EXPIRED');
    // A fresh link works again.
    expect((await raw('GET', (await downloadUrl(alice, a.body.id)).body.url)).bytes.toString()).toBe('hi');
  });
});

describe('attachments: who may complete and download', () => {
  it('lets only the uploader complete, any member download; others get 404, other environments too', async () => {
    const { keys, alice, bob, carol, conversationId } = await setup('staging');
    const created = await uploaded(alice, conversationId, Buffer.from('data'), false);
    expectError(await complete(bob, created.id), 403, 'SERVICE_PERMISSION_DENIED');
    expectError(await complete(carol, created.id), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
    expect((await complete(alice, created.id)).status).toBe(200);
    expect((await downloadUrl(bob, created.id)).status).toBe(200);
    expect((await downloadUrl(keys.staging, created.id)).status).toBe(200);
    expectError(await downloadUrl(carol, created.id), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
    for (const other of [keys.development, keys.production]) {
      expectError(await complete(other, created.id), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
      expectError(await downloadUrl(other, created.id), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
      const otherAlice = await mintChatToken(t.api, other, 'alice');
      expectError(await complete(otherAlice, created.id), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
      expectError(await downloadUrl(otherAlice, created.id), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
    }
    expectError(await downloadUrl(alice, 'att_nope'), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
    expectError(await complete(alice, created.id.replace('att_', 'msg_')), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
    expectError(await t.api.get(`/v1/chat/attachments/${created.id}/download-url`, {}), 401, 'SERVICE_UNAUTHENTICATED');
  });
});

describe('attachments: cleanup', () => {
  it('deletes attachments never completed within an hour, row and file, and keeps completed ones', async () => {
    const { project, alice, conversationId } = await setup();
    const pending = (await declare(alice, conversationId, { filename: 'p', contentType: 'text/plain', size: 1 })).body;
    const uploadedOnly = await uploaded(alice, conversationId, Buffer.from('u'), false);
    const kept = await uploaded(alice, conversationId, Buffer.from('k'));
    expect(await storedOf(project.id, uploadedOnly.id)).toBeDefined();

    clock.advance(59 * MINUTE);
    await t.server.runAttachmentCleanup();
    expect(await storedOf(project.id, uploadedOnly.id)).toBeDefined();

    clock.advance(1 * MINUTE);
    expect(await t.server.runAttachmentCleanup()).toBeGreaterThanOrEqual(2);
    expect(await storedOf(project.id, uploadedOnly.id)).toBeUndefined();
    expectError(await complete(alice, uploadedOnly.id), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
    expectError(await complete(alice, pending.id), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
    expect((await downloadUrl(alice, kept.id)).status).toBe(200);
    expect(await storedOf(project.id, kept.id)).toBeDefined();
  });

  it('treats an upload past its deadline as gone even before the job runs', async () => {
    const { project, alice, conversationId } = await setup();
    const late = await uploaded(alice, conversationId, Buffer.from('late'), false);
    clock.advance(60 * MINUTE);
    expectError(await complete(alice, late.id), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
    expect(await storedOf(project.id, late.id)).toBeUndefined();
  });
});

describe.skipIf(sqliteOnly('the temporary files of interrupted uploads'))(
  'attachments: an upload interrupted by a crash',
  () => {
    it('leaves no temporary file behind once a server has started on the data folder', async () => {
      // What a process killed mid-upload leaves: a temporary file beside a finished one.
      const dataDir = makeDataDir();
      const folder = join(dataDir, 'attachments', 'prj_01JD3K5V8Q3N4M2X6Y7Z8A9B0C');
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'att_01JD3K5V8Q3N4M2X6Y7Z8A9B0D'), 'complete');
      writeFileSync(join(folder, '.att_01JD3K5V8Q3N4M2X6Y7Z8A9B0C.0a1b2c3d4e5f.part'), 'half an upload');
      const server = await startTestServer({ dataDir });
      try {
        // Removed by the runtime, which a server with no request loads within a second of listening.
        await expect.poll(() => readdirSync(folder), { timeout: 5000 }).toEqual(['att_01JD3K5V8Q3N4M2X6Y7Z8A9B0D']);
      } finally {
        await server.dispose();
      }
    });
  },
);

describe('attachments of a deleted project', () => {
  it('are deleted with it, files included', async () => {
    const { owner, project, alice, conversationId } = await setup();
    const { id } = await uploaded(alice, conversationId, Buffer.from('gone soon'));
    expect(await storedOf(project.id, id)).toBeDefined();
    expect((await t.api.delete(`/v1/projects/${project.id}`, { token: owner.token })).status).toBe(204);
    expect(await storedOf(project.id, id)).toBeUndefined();
    expect(existsSync(join(t.server.dataDir, 'attachments', project.id))).toBe(false);
  });
});

describe('attachments on messages', () => {
  const send = (token: string, conversationId: string, body: Record<string, unknown>) =>
    t.api.post(`/v1/chat/conversations/${conversationId}/messages`, { token, body });

  it('shows completed attachments on the message, and deletes them with it', async () => {
    const { project, alice, bob, conversationId } = await setup();
    const first = await uploaded(alice, conversationId, Buffer.from('one'));
    const second = await uploaded(alice, conversationId, Buffer.from('two!'));
    const sent = await send(alice, conversationId, { text: 'files', attachmentIds: [second.id, first.id] });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const expected = [
      { id: second.id, filename: 'notes.txt', contentType: 'text/plain', size: 4 },
      { id: first.id, filename: 'notes.txt', contentType: 'text/plain', size: 3 },
    ];
    expect(sent.body.attachments).toEqual(expected);
    expect((await t.api.get(`/v1/chat/messages/${sent.body.id}`, { token: bob })).body.attachments).toEqual(expected);
    const listed = await t.api.get(`/v1/chat/conversations/${conversationId}/messages`, { token: bob });
    expect(listed.body.data.find((m: { id: string }) => m.id === sent.body.id).attachments).toEqual(expected);
    expect((await send(bob, conversationId, { text: 'plain' })).body.attachments).toEqual([]);

    const link = (await downloadUrl(bob, first.id)).body.url;
    expect((await t.api.delete(`/v1/chat/messages/${sent.body.id}`, { token: alice })).status).toBe(204);
    expect((await t.api.get(`/v1/chat/messages/${sent.body.id}`, { token: bob })).body.attachments).toEqual([]);
    expectError(await raw('GET', link), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
    expectError(await downloadUrl(bob, first.id), 404, 'SERVICE_ATTACHMENT_NOT_FOUND');
    expect(await storedOf(project.id, first.id)).toBeUndefined();
    expect(await storedOf(project.id, second.id)).toBeUndefined();
  });

  it('deletes a message and its attachments together, or neither', async () => {
    const { project, alice, bob, conversationId } = await setup();
    const file = await uploaded(alice, conversationId, Buffer.from('kept'));
    const sent = await send(alice, conversationId, { text: 'with a file', attachmentIds: [file.id] });
    // The attachment rows, deleted after the message becomes a tombstone, cannot be deleted.
    const failed = await whileRefusing(t.server, 'DELETE', 'attachments', () =>
      t.api.delete(`/v1/chat/messages/${sent.body.id}`, { token: alice }),
    );
    expectError(failed, 409, 'SERVICE_CONFLICT');
    const kept = await t.api.get(`/v1/chat/messages/${sent.body.id}`, { token: bob });
    expect(kept.body).toMatchObject({ text: 'with a file', deleted: false, attachments: [{ id: file.id }] });
    expect((await raw('GET', (await downloadUrl(bob, file.id)).body.url)).bytes.toString()).toBe('kept');

    expect((await t.api.delete(`/v1/chat/messages/${sent.body.id}`, { token: alice })).status).toBe(204);
    expect(await storedOf(project.id, file.id)).toBeUndefined();
  });

  it('refuses attachments that are not completed, not this conversation’s, not the sender’s, reused or too many', async () => {
    const { key, alice, bob, conversationId } = await setup();
    const other = (await t.api.post('/v1/chat/conversations', { token: alice, body: { name: `o-${Math.random()}` } }))
      .body.id;
    const notCompleted = await uploaded(alice, conversationId, Buffer.from('x'), false);
    const elsewhere = await uploaded(alice, other, Buffer.from('x'));
    const alices = await uploaded(alice, conversationId, Buffer.from('x'));
    for (const [token, ids, why] of [
      [alice, [notCompleted.id], 'not completed'],
      [alice, [elsewhere.id], 'no attachment'],
      [alice, ['att_missing'], 'no attachment'],
      [bob, [alices.id], 'someone else'],
      [alice, [alices.id, alices.id], 'twice'],
      [alice, Array.from({ length: 11 }, (_, i) => `att_${i}`), 'at most 10'],
    ] as const) {
      const res = await send(token, conversationId, { text: 'x', attachmentIds: ids });
      expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
      expect(res.body.message).toContain(why);
    }
    // A server may send anyone's attachment for any user, once.
    const sent = await send(key, conversationId, { text: 'x', senderId: 'bob', attachmentIds: [alices.id] });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const again = await send(alice, conversationId, { text: 'x', attachmentIds: [alices.id] });
    expectError(again, 400, 'SERVICE_VALIDATION_FAILED');
    expect(again.body.message).toContain('already on a message');
    // A refused message claims nothing: its good attachment can still be sent.
    const spare = await uploaded(alice, conversationId, Buffer.from('y'));
    expectError(
      await send(alice, conversationId, { text: 'x', attachmentIds: [spare.id, 'att_missing'] }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
    expect((await send(alice, conversationId, { text: 'x', attachmentIds: [spare.id] })).status).toBe(201);
  });
});
