// An esbuild plugin that bundles a dependency's large JSON file as `JSON.parse('…')` of its text rather than as a
// JavaScript object literal. V8 scans a string literal far faster than it parses an object literal, and JSON.parse
// builds the object faster than the literal's code would (V8's own advice for objects of 10 KB and more). The one
// such file the server loads is mime-db's table of media types (Express's `res.type`, `send`), 200 KB.
// Used by build/bundle-cli.mjs (dist/switchboard.mjs), build/bundle-testing.mjs and build/binary.ts.
import { readFileSync } from 'node:fs';

/** Smaller files stay object literals: the difference is lost in the noise. */
const MIN_BYTES = 10 * 1024;

/** @returns {import('esbuild').Plugin} */
export function jsonAsStringPlugin() {
  return {
    name: 'json-as-string',
    setup(bundle) {
      bundle.onLoad({ filter: /[\\/]node_modules[\\/].*\.json$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (text.length < MIN_BYTES) return undefined;
        // Re-serialized: the file's indentation is not worth carrying.
        const compact = JSON.stringify(JSON.parse(text));
        return { loader: 'js', contents: `module.exports = JSON.parse(${JSON.stringify(compact)});` };
      });
    },
  };
}
