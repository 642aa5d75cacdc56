import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/source-files.js';

const ROOT = resolve('.');
/** The folders above db/: the store takes what it needs from them as parameters, never by importing them. */
const ABOVE_DB = ['server', 'cli', 'sdk', 'testing', 'main', 'renderer'];

/**
 * Every module `file` names, as TypeScript's own scanner finds them: static imports and re-exports (type-only ones
 * too), dynamic `import()`, `import()` types and `require()`.
 */
function importedModules(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);
}

/** The top folder of the repository a relative specifier in `file` points into; undefined for a package. */
function topFolderOf(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return relative(ROOT, resolve(dirname(file), specifier)).split(sep)[0];
}

describe('db/, the bottom floor', () => {
  it('imports nothing from server/, cli/, sdk/, testing/, main/ or renderer/', () => {
    const files = sourceFiles(resolve('db'));
    expect(files.length).toBeGreaterThan(5);
    const upward = files.flatMap((file) =>
      importedModules(file)
        .filter((specifier) => ABOVE_DB.includes(topFolderOf(file, specifier) ?? ''))
        .map((specifier) => `${relative(ROOT, file)} imports ${specifier}`),
    );
    expect(upward).toEqual([]);
  });
});

/** Modules that name a SQL dialect or its driver: only db/ may import them. */
const DIALECT_MODULES =
  /^(better-sqlite3|pg|postgres|drizzle-orm\/(sqlite-core|pg-core|better-sqlite3|node-postgres)(\/.*)?)$/;

describe('services never name the SQL dialect', () => {
  const serverFiles = sourceFiles(resolve('server'));

  it('imports no database driver or dialect module above db/', () => {
    const files = ABOVE_DB.flatMap((folder) => sourceFiles(resolve(folder)));
    const naming = files.flatMap((file) =>
      importedModules(file)
        .filter((specifier) => DIALECT_MODULES.test(specifier))
        .map((specifier) => `${relative(ROOT, file)} imports ${specifier}`),
    );
    expect(naming).toEqual([]);
  });

  it('finishes no query with SQLite’s synchronous .get(), .all(), .run() (PostgreSQL’s builders have none)', () => {
    expect(serverFiles.length).toBeGreaterThan(50);
    const synchronous = serverFiles.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /\.(get|all|run)\(\)/.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(synchronous).toEqual([]);
  });
});
