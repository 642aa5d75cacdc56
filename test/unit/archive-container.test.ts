import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestOf, writeArchiveFile } from '../../server/data-archive/index.js';
import type { Snapshot } from '../../server/data-archive/snapshot.js';
import { readTar } from '../../server/data-archive/tar.js';

const dir = mkdtempSync(join(tmpdir(), 'switchboard-tar-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Files of awkward sizes (empty, one block exactly, one byte over) as a snapshot. */
function snapshotOf(files: Record<string, Buffer>): Snapshot {
  return {
    entries: Object.entries(files).map(([path, bytes], i) => {
      const file = join(dir, `file-${i}`);
      writeFileSync(file, bytes);
      return { path, file, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    }),
    dispose() {},
  };
}

/** True when `tar` runs here; otherwise says why its test is skipped. */
function systemTar(): boolean {
  try {
    execFileSync('tar', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('Skipping the system tar check: no `tar` on this machine');
    return false;
  }
}

const files = {
  'switchboard.db': randomBytes(512),
  'webhook-secrets.key': Buffer.alloc(0),
  'attachments/prj_01ABC/att_01DEF': randomBytes(70_001),
};

async function written(): Promise<string> {
  const snapshot = snapshotOf(files);
  const file = join(dir, `archive-${Math.random()}.tar.gz`);
  await writeArchiveFile(snapshot, manifestOf(snapshot, { switchboardVersion: '1.2.3', createdAt: new Date() }), file);
  return file;
}

/** Every entry of the archive as read back, the tar fed `chunkSize` bytes at a time. */
async function readBack(file: string, chunkSize: number): Promise<Record<string, Buffer>> {
  const tar = gunzipSync(readFileSync(file));
  async function* chunks() {
    for (let at = 0; at < tar.length; at += chunkSize) yield tar.subarray(at, at + chunkSize);
  }
  const entries: Record<string, Buffer> = {};
  await readTar(chunks(), ({ name }) => {
    const parts: Buffer[] = [];
    return {
      write: (chunk) => {
        parts.push(Buffer.from(chunk));
      },
      end: () => {
        entries[name] = Buffer.concat(parts);
      },
    };
  });
  return entries;
}

describe('the archive container', () => {
  it('reads back what it wrote, the manifest first, however the bytes arrive', async () => {
    const file = await written();
    for (const chunkSize of [1, 511, 512, 4096, 1 << 20]) {
      const entries = await readBack(file, chunkSize);
      expect(Object.keys(entries)).toEqual(['manifest.json', ...Object.keys(files)]);
      for (const [path, bytes] of Object.entries(files)) expect(entries[path].equals(bytes), path).toBe(true);
      expect(JSON.parse(entries['manifest.json'].toString())).toMatchObject({
        format: 'switchboard-archive',
        version: 1,
        switchboardVersion: '1.2.3',
      });
    }
  });

  it.skipIf(!systemTar())('is a tar that the system tar lists and extracts', async () => {
    const file = await written();
    expect(execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n')).toEqual([
      'manifest.json',
      ...Object.keys(files),
    ]);
    const attachment = execFileSync('tar', ['-xzOf', file, 'attachments/prj_01ABC/att_01DEF']);
    expect(attachment.equals(files['attachments/prj_01ABC/att_01DEF'])).toBe(true);
  });
});
