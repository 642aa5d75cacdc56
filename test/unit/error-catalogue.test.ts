import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../server/error-codes.js';
import { sourceFiles } from '../support/source-files.js';

describe('the error catalogue', () => {
  it('is the table of docs/errors.md, row for row', () => {
    const doc = readFileSync('docs/errors.md', 'utf8');
    const rows = [...doc.matchAll(/^\| (\d{3}) \| `(SERVICE_[A-Z_]+)` \| (.+) \|$/gm)].map(
      ([, status, code, when]) => ({
        code,
        status: Number(status),
        when,
      }),
    );
    const catalogue = Object.entries(ERROR_CODES).map(([code, { status, when }]) => ({ code, status, when }));
    expect(rows).toEqual(catalogue);
  });

  it('names every code the server and the SDK use', () => {
    const known = new Set(Object.keys(ERROR_CODES));
    for (const file of [...sourceFiles('server'), ...sourceFiles('sdk'), ...sourceFiles('cli')]) {
      for (const [code] of readFileSync(file, 'utf8').matchAll(/\bSERVICE_[A-Z][A-Z_]*[A-Z]\b/g)) {
        expect(known.has(code), `${code} in ${file}`).toBe(true);
      }
    }
  });
});
