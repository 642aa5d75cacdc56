/**
 * How the single executable runs a server's media process: it has no Node.js and no file to fork besides itself, so
 * sea-files.ts has the server fork the executable again, with a variable in its environment that sea-main.ts looks
 * for before anything else, running server/media/main.ts (bundled in, werift with it) instead of the command.
 */
import type { MediaProcessEntry } from './app-files.js';

const VARIABLE = 'SWITCHBOARD_SEA_MEDIA_PROCESS';
/** What fork() passes where a script would be: the arguments after it are the media process's own. */
const MARKER = 'switchboard-media-process';

export const seaMediaProcessEntry = (): MediaProcessEntry => ({
  module: MARKER,
  execArgv: [],
  env: { [VARIABLE]: '1' },
});

/**
 * Whether this run is a media process. If so, leaves process.argv as a forked script sees it, [executable, script,
 * …arguments], whatever a single executable puts before (it repeats the executable's path).
 */
export function isSeaMediaProcess(): boolean {
  if (process.env[VARIABLE] !== '1') return false;
  // Not passed on: nothing the media process starts is one.
  delete process.env[VARIABLE];
  const at = process.argv.indexOf(MARKER);
  if (at > 1) process.argv.splice(1, at - 1);
  return true;
}
