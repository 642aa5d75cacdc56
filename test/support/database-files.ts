import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ServerData, withTestDatabase } from './test-database.js';

/**
 * What the server's database holds, as one string, to search for leaks: on SQLite the raw bytes of its file and its
 * write-ahead log (free pages included); on PostgreSQL every row of every table, as JSON.
 */
export async function databaseBytes(server: ServerData): Promise<string> {
  if (server.databaseUrl)
    return withTestDatabase(server, async (db) => {
      let text = '';
      for (const table of await db.tables()) text += JSON.stringify(await db.query(`SELECT * FROM "${table}"`));
      return text;
    });
  let bytes = '';
  for (const file of ['switchboard.db', 'switchboard.db-wal']) {
    try {
      bytes += readFileSync(join(server.dataDir, file)).toString('latin1');
    } catch {
      // The WAL may not exist at that moment.
    }
  }
  return bytes;
}
