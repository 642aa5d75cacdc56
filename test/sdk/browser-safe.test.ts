import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SDK = resolve('sdk');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The modules a file loads at run time: what is left after TypeScript erases the type-only imports. */
function runtimeImports(file: string): string[] {
  const js = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  }).outputText;
  return [...js.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
}

describe('the SDK in a browser', () => {
  it('loads only its own modules at run time: no Node built-ins, no server code, no packages', () => {
    const files = sourceFiles(SDK);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      for (const specifier of runtimeImports(file)) {
        const target = resolve(join(file, '..'), specifier);
        expect(
          specifier.startsWith('.') && !relative(SDK, target).startsWith('..'),
          `${file} imports ${specifier}`,
        ).toBe(true);
      }
    }
  });
});
