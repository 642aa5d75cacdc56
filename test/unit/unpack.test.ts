import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CarriedFiles, unpackOnce } from '../../server/app-files/unpack.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function cacheRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'switchboard-unpack-'));
  roots.push(root);
  return root;
}

/** Two carried files, counting the reads. */
function carried(): CarriedFiles & { reads: number } {
  const contents: Record<string, string> = { 'addon.node': 'binary', 'migrations/meta/_journal.json': '{}' };
  const files = {
    files: Object.keys(contents),
    reads: 0,
    read(file: string) {
      files.reads++;
      return new TextEncoder().encode(contents[file]);
    },
  };
  return files;
}

describe('unpacking the single executable’s files', () => {
  it('writes every file into the folder, creating its parents, and leaves no temporary folder', () => {
    const root = cacheRoot();
    const folder = join(root, 'switchboard', '0.1.0-abc');
    expect(unpackOnce(folder, carried())).toBe(folder);
    expect(readFileSync(join(folder, 'addon.node'), 'utf8')).toBe('binary');
    expect(readFileSync(join(folder, 'migrations/meta/_journal.json'), 'utf8')).toBe('{}');
    expect(readdirSync(join(root, 'switchboard'))).toEqual(['0.1.0-abc']);
  });

  it('uses a complete folder as it is, reading nothing', () => {
    const folder = join(cacheRoot(), '0.1.0-abc');
    unpackOnce(folder, carried());
    const again = carried();
    expect(unpackOnce(folder, again)).toBe(folder);
    expect(again.reads).toBe(0);
  });

  it('replaces a folder that lost files', () => {
    const folder = join(cacheRoot(), '0.1.0-abc');
    unpackOnce(folder, carried());
    rmSync(join(folder, 'addon.node'));
    expect(unpackOnce(folder, carried())).toBe(folder);
    expect(readFileSync(join(folder, 'addon.node'), 'utf8')).toBe('binary');
  });

  it('uses the folder of a process that finished unpacking first, and removes its own copy', () => {
    const root = cacheRoot();
    const folder = join(root, '0.1.0-abc');
    const files = carried();
    const racing: CarriedFiles = {
      files: files.files,
      read(file) {
        // The other process renames its complete folder into place while this one is still writing.
        if (!readdirSync(root).includes('0.1.0-abc')) {
          mkdirSync(join(folder, 'migrations/meta'), { recursive: true });
          writeFileSync(join(folder, 'addon.node'), 'theirs');
          writeFileSync(join(folder, 'migrations/meta/_journal.json'), '{}');
        }
        return files.read(file);
      },
    };
    expect(unpackOnce(folder, racing)).toBe(folder);
    expect(readFileSync(join(folder, 'addon.node'), 'utf8')).toBe('theirs');
    expect(readdirSync(root)).toEqual(['0.1.0-abc']);
  });
});
