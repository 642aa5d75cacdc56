import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifySnippets } from '../../renderer/src/pages/webhooks/verify-snippets.js';
import { signatureHeader } from '../../server/webhooks/signature.js';
import { freePort } from '../support/wait.js';

const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ0123456789';
let handler: ChildProcess | undefined;
let folder: string | undefined;
afterEach(() => {
  handler?.kill();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Runs the dashboard's dependency-free snippet as a user would paste it, on the endpoint URL's port. */
async function runPlainSnippet(url: string): Promise<void> {
  const plain = verifySnippets({ url, events: ['room.created'] }).find((s) => s.id === 'plain');
  folder = mkdtempSync(join(tmpdir(), 'verify-snippet-'));
  const file = join(folder, 'handler.mjs');
  writeFileSync(file, plain?.code ?? '');
  handler = spawn(process.execPath, [file], { env: { SWITCHBOARD_WEBHOOK_SECRET: SECRET }, stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    if ((await fetch(url, { method: 'GET' }).catch(() => null))?.status === 404) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the snippet did not start listening');
}

describe('the dashboard’s signature-checking snippet without dependencies', () => {
  it('accepts a delivery signed as the server signs, and refuses other bytes, another secret or an old timestamp', async () => {
    const url = `http://127.0.0.1:${await freePort()}/hooks/switchboard`;
    await runPlainSnippet(url);
    const body = JSON.stringify({ id: 'evt_1', type: 'room.created', data: { room: { id: 'room_1' } } });
    const now = Math.floor(Date.now() / 1000);
    const post = (signature: string, sent = body) =>
      fetch(url, { method: 'POST', headers: { 'service-signature': signature }, body: sent }).then((r) => r.status);

    expect(await post(signatureHeader(SECRET, now, body))).toBe(204);
    expect(await post(signatureHeader(SECRET, now, body), `${body} `)).toBe(400);
    expect(await post(signatureHeader(`${SECRET}x`, now, body))).toBe(400);
    expect(await post(signatureHeader(SECRET, now - 301, body))).toBe(400);
    expect(await post(`t=${now},v1=zz`)).toBe(400);
    expect(await post('')).toBe(400);
  });
});
