import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The files a single executable carries: paths relative to the folder they unpack into, '/'-separated. */
export interface CarriedFiles {
  files: readonly string[];
  /** The bytes of one of `files`. */
  read(file: string): Uint8Array;
}

const isComplete = (folder: string, files: readonly string[]) => files.every((file) => existsSync(join(folder, file)));

/**
 * Makes `folder` hold every carried file and returns it. A folder already complete is used as it is (the name
 * given carries the content hash, so complete means current). Otherwise the files are written into a fresh
 * temporary folder beside it, which is then renamed into place: a process starting at the same moment either wins
 * that rename or finds the winner's complete folder, and never sees a half-written one.
 */
export function unpackOnce(folder: string, carried: CarriedFiles): string {
  if (isComplete(folder, carried.files)) return folder;
  mkdirSync(dirname(folder), { recursive: true });
  const temporary = mkdtempSync(`${folder}.unpacking-`);
  try {
    for (const file of carried.files) {
      const target = join(temporary, file);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, carried.read(file));
    }
    try {
      renameSync(temporary, folder);
    } catch (err) {
      if (isComplete(folder, carried.files)) return folder; // another process won the race
      // An incomplete folder from before (files deleted by hand or by a cleaner): replaced.
      if (!existsSync(folder)) throw err;
      rmSync(folder, { recursive: true, force: true });
      renameSync(temporary, folder);
    }
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
  return folder;
}
