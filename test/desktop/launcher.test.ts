// `npm run desktop` where npm left Electron's binary out, as it does by default: one sentence, no stack trace.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

function electronInstalled(): boolean {
  try {
    return existsSync(createRequire(import.meta.url)('electron') as string);
  } catch {
    return false;
  }
}

const installed = electronInstalled();
if (installed)
  console.warn('Skipping the missing-Electron test: Electron’s binary is installed here, so the app would open');

describe.skipIf(installed)('npm run desktop without Electron’s binary', () => {
  it('says what is missing and what to run, in one line, and exits 1', async () => {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, ['build/desktop.mjs'], (err, _stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('npm run desktop:install')]);
    expect(stderr).toContain("Electron's binary is not installed");
  });
});
