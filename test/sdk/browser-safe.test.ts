import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/source-files.js';

const SDK = resolve('sdk');
/**
 * The Node-only entry point and what only it loads: verifying webhook signatures happens on the
 * receiver's server, with node:crypto. Everything else must load in a browser.
 */
const NODE_ONLY = new Set([resolve('sdk/node.ts'), resolve('sdk/webhooks.ts')]);

/** The modules a file loads at run time: what is left after TypeScript erases the type-only imports. */
function runtimeImports(file: string): string[] {
  const js = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  }).outputText;
  return [...js.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
}

describe('the SDK in a browser', () => {
  it('loads only its own modules at run time: no Node built-ins, no server code, no packages', () => {
    const files = sourceFiles(SDK).filter((file) => !NODE_ONLY.has(file));
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

describe("the SDK's types", () => {
  it('come from the server through sdk/contract.ts alone, which the package writes out as plain types', () => {
    const contract = resolve('sdk/contract.ts');
    for (const file of sourceFiles(SDK).filter((file) => file !== contract)) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      for (const { fileName: specifier } of importedFiles) {
        const target = resolve(join(file, '..'), specifier);
        expect(
          specifier.startsWith('node:') || (specifier.startsWith('.') && !relative(SDK, target).startsWith('..')),
          `${file} imports ${specifier}`,
        ).toBe(true);
      }
    }
  });
});

describe('the SDK entry points', () => {
  it('keeps the browser entry free of the Node-only module, which the Node entry adds', () => {
    const browserEntry = runtimeImports(resolve('sdk/index.ts'));
    expect(browserEntry).not.toContain('./webhooks.js');
    expect(runtimeImports(resolve('sdk/node.ts'))).toEqual(['./index.js', './webhooks.js']);
  });
});
