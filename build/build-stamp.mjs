// What a build step read, and whether any of it changed since: the memory that lets `npm start` skip a build.
// A step's stamp (dist/.build/<step>.json) lists each input file it read, as the bundler reported it, with its
// modification time. The step is stale when its stamp or one of its outputs is missing, or an input was changed or
// removed. A new file can only matter once a listed file imports it, and that file's time then changes.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const STAMP_FOLDER = join('dist', '.build');

/** The stamp's file for a step. */
const stampFile = (root, step) => join(root, STAMP_FOLDER, `${step}.json`);

/** A file's modification time in ms, or undefined when it is gone. */
function modifiedAt(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Why `step` must be built again, in a few words, or undefined when its outputs are there and none of its inputs
 * changed since its stamp was written.
 * @param {string} root the repository
 * @param {string} step the step's name
 * @param {string[]} outputs files (relative to root) the step writes; a missing one makes it stale
 * @returns {string | undefined}
 */
export function whyStale(root, step, outputs) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile(root, step), 'utf8'));
  } catch {
    return 'not built yet';
  }
  const missing = outputs.find((output) => modifiedAt(join(root, output)) === undefined);
  if (missing) return `${missing} is missing`;
  for (const [input, time] of Object.entries(stamp.inputs)) {
    const now = modifiedAt(join(root, input));
    if (now === undefined) return `${input} was removed`;
    if (now !== time) return `${input} changed`;
  }
  return undefined;
}

/**
 * Records what `step` read, once it has succeeded. Inputs are paths absolute or relative to root; those outside the
 * repository are left out (they belong to Node.js), and so are those in node_modules, which stand for themselves
 * through node_modules/.package-lock.json: npm rewrites it on every install that changes a package. A file saved
 * after the step started may not be what it read: it is recorded as changed, for the next run to build again.
 * @param {string} root
 * @param {string} step
 * @param {Iterable<string>} inputs
 * @param {number} startedAt when the step started (ms since the epoch)
 */
export function writeStamp(root, step, inputs, startedAt) {
  const recorded = {};
  for (const input of [...inputs, 'node_modules/.package-lock.json']) {
    const path = relative(root, resolve(root, input)).split(sep).join('/');
    if (path.startsWith('..') || recorded[path] !== undefined) continue;
    if (path.startsWith('node_modules/') && path !== 'node_modules/.package-lock.json') continue;
    const time = modifiedAt(join(root, path));
    if (time !== undefined) recorded[path] = time < startedAt ? time : 0;
  }
  const file = stampFile(root, step);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ inputs: recorded }, null, 1)}\n`);
}
