#!/usr/bin/env node
import * as nodeModule from 'node:module';

// Node.js 22.1 and later keep the code they compile in a cache folder (the system's temporary one), so that the next
// start of the same build does not parse and compile it again. Turned on before anything else loads: the command's
// own code (commander and every command) then comes from the cache too, as does the server's, which is most of what
// `serve` loads before its first API answer. Where the folder cannot be written, Node carries on without it.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// A promise rather than a top-level await: the single executable runs this file bundled as CommonJS.
void import('./main.js');
