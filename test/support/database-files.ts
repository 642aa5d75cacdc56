import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The raw bytes of the server's SQLite database and its write-ahead log, as one string, to search for leaks. */
export function databaseBytes(dataDir: string): string {
  let bytes = '';
  for (const file of ['switchboard.db', 'switchboard.db-wal']) {
    try {
      bytes += readFileSync(join(dataDir, file)).toString('latin1');
    } catch {
      // The WAL may not exist at that moment.
    }
  }
  return bytes;
}
