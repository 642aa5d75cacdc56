import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { whyStale, writeStamp } from '../../build/build-stamp.mjs';

/** A repository of a few files: two sources, a dependency in node_modules and the step's output. */
let root: string;
const write = (path: string, text = path) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};
/** Moves a file's modification time, as an editor saving it would. */
const touch = (path: string, seconds: number) => utimesSync(join(root, path), seconds, seconds);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'switchboard-build-stamp-'));
  for (const path of ['src/a.ts', 'src/b.ts', 'node_modules/dep/index.js', 'node_modules/.package-lock.json'])
    write(path);
  write('dist/out.js');
  // Every file was written a second ago or less: the step started later.
  writeStamp(
    root,
    'step',
    ['src/a.ts', join(root, 'src/b.ts'), 'node_modules/dep/index.js', '/usr/lib/node.js'],
    Date.now() + 1000,
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('build stamps', () => {
  it('finds nothing to do when no input changed', () => {
    expect(whyStale(root, 'step', ['dist/out.js'])).toBeUndefined();
  });

  it('rebuilds a step never built, or whose output is gone', () => {
    expect(whyStale(root, 'other', ['dist/out.js'])).toBe('not built yet');
    rmSync(join(root, 'dist/out.js'));
    expect(whyStale(root, 'step', ['dist/out.js'])).toBe('dist/out.js is missing');
  });

  it('names the source that changed or was removed, given relative or absolute', () => {
    touch('src/b.ts', 1_000_000);
    expect(whyStale(root, 'step', ['dist/out.js'])).toBe('src/b.ts changed');
    writeStamp(root, 'step', ['src/a.ts', 'src/b.ts'], Date.now() + 1000);
    rmSync(join(root, 'src/a.ts'));
    expect(whyStale(root, 'step', ['dist/out.js'])).toBe('src/a.ts was removed');
  });

  it('counts a file saved while the step ran as changed', () => {
    touch('src/a.ts', 2_000_000_000);
    writeStamp(root, 'step', ['src/a.ts', 'src/b.ts'], Date.now());
    expect(whyStale(root, 'step', ['dist/out.js'])).toBe('src/a.ts changed');
  });

  it('stands for every installed package by npm’s record of the install', () => {
    touch('node_modules/dep/index.js', 1_000_000);
    expect(whyStale(root, 'step', ['dist/out.js'])).toBeUndefined();
    touch('node_modules/.package-lock.json', 1_000_000);
    expect(whyStale(root, 'step', ['dist/out.js'])).toBe('node_modules/.package-lock.json changed');
  });
});
