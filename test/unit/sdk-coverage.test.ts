import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '../../server/routes.js';
import { sourceFiles } from '../support/source-files.js';

/** `get /v1/projects/{}/webhooks`: a route or an SDK call, path parameters left out. */
const shape = (method: string, path: string) => `${method.toLowerCase()} ${path}`;

describe('the SDK', () => {
  it('has a method for every route of the API', () => {
    const calls = new Set<string>();
    for (const file of sourceFiles('sdk')) {
      const text = readFileSync(file, 'utf8').replace(/\s+/g, ' ');
      // Each call names its method and its path template: `method: 'GET', path: path`/v1/…/${id}``.
      for (const [, method, template] of text.matchAll(/method: '([A-Z]+)',? (?:\w+: [^,]*, )*?path: path`([^`]*)`/g))
        calls.add(shape(method, template.replace(/\$\{[^}]*\}/g, '{}')));
      // The live event stream is read with openEventStream, not request().
      for (const [, template] of text.matchAll(/openEventStream\( ?\{ ?path: path`([^`]*)`/g))
        calls.add(shape('get', template.replace(/\$\{[^}]*\}/g, '{}')));
    }
    const missing = routes
      .filter((route) => !calls.has(shape(route.method, route.path.replace(/\{\w+\}/g, '{}'))))
      .map((route) => `${route.method.toUpperCase()} ${route.path} (${route.operationId})`);
    expect(missing).toEqual([]);
  });
});
