import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '../../server/routes.js';
import { sourceFiles } from '../support/source-files.js';

describe('the SDK', () => {
  it('has a method for every route of the API', () => {
    const called = new Set<string>();
    for (const file of sourceFiles('sdk')) {
      const text = readFileSync(file, 'utf8');
      // Every SDK method names its operation: `transport.call('listApiKeys', …)`, or
      // `transport.openEventStream('streamEvents', …)` for the live event stream.
      for (const [, operationId] of text.matchAll(/\.(?:call|openEventStream)\(\s*'(\w+)'/g)) called.add(operationId);
    }
    const missing = routes
      .filter((route) => !called.has(route.operationId))
      .map((route) => `${route.operationId} (${route.method.toUpperCase()} ${route.path})`);
    expect(missing).toEqual([]);
  });
});
