// An esbuild plugin that leaves out two dependencies' data the server can never reach, so that start-up does not
// read and parse it (a chunk is parsed whole, used or not): 830 KB, a third of the server's bundle.
// - iconv-lite's legacy encodings (Shift JIS, GBK, Big5, the single-byte code pages: 470 KB). iconv-lite is there
//   only for body-parser's JSON parser, which refuses any charset but utf-* (415) before it asks iconv-lite, and
//   the UTF codecs are kept.
// - zod's error messages in 48 other languages (`z.locales`, 360 KB): the server speaks English (zod's default,
//   which zod imports by itself) and never selects another.
// Used by build/bundle-cli.mjs (dist/switchboard.mjs) and build/binary.ts (the single executable).
import { dirname, join } from 'node:path';

const ICONV_ENCODINGS = /[\\/]iconv-lite[\\/]encodings[\\/]index\.js$/;
const ZOD_LOCALES = /^\.\.\/locales\/index\.js$/;
const ZOD_V4 = /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/;

/** @returns {import('esbuild').Plugin} */
export function unreachableDataPlugin() {
  return {
    name: 'unreachable-data',
    setup(bundle) {
      bundle.onLoad({ filter: ICONV_ENCODINGS }, () => ({
        loader: 'js',
        contents: `"use strict";
var mergeModules = require("../lib/helpers/merge-exports");
var modules = [require("./internal"), require("./utf32"), require("./utf16"), require("./utf7")];
for (var i = 0; i < modules.length; i++) mergeModules(exports, modules[i]);`,
      }));
      bundle.onResolve({ filter: ZOD_LOCALES }, (args) => {
        if (!ZOD_V4.test(args.importer)) return undefined;
        return { path: join(dirname(args.importer), '..', 'locales', 'english-only.js'), namespace: 'zod-locales' };
      });
      bundle.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
        loader: 'js',
        resolveDir: dirname(args.path),
        contents: 'export { default as en } from "./en.js";',
      }));
    },
  };
}
