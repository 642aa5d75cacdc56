/**
 * The single executable's main script (build/binary.ts bundles it as CommonJS): the `switchboard` command, or, when a
 * server forked the executable as its media process, that process (sea-media-process.ts). Promises rather than
 * top-level awaits, which CommonJS has not; each module loads only on its path.
 */
import { isSeaMediaProcess } from './sea-media-process.js';

if (isSeaMediaProcess()) void import('../media/main.js');
else void import('../../cli/index.js');
