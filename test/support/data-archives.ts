import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { expect } from 'vitest';
import { ADMIN_TOKEN_FILE } from '../../server/backups/admin-token-file.js';
import { type ServerData, withTestDatabase } from './test-database.js';

/**
 * Each table's rows, as sorted JSON lines (so that row order does not matter), read from the database itself (so a
 * new table is never forgotten): a data folder's SQLite file (`{ dataDir }`), or a test server's database. Written
 * the same on both stores, so that they compare: booleans as 0/1, each row's columns by name.
 */
export async function tableContents(server: ServerData): Promise<Record<string, string[]>> {
  return withTestDatabase(server, async (db) => {
    const contents: Record<string, string[]> = {};
    for (const table of await db.tables())
      contents[table] = (await db.query<Record<string, unknown>>(`SELECT * FROM "${table}"`)).map(rowText).sort();
    return contents;
  });
}

function rowText(row: Record<string, unknown>): string {
  const columns = Object.keys(row).sort();
  return JSON.stringify(
    Object.fromEntries(
      columns.map((column) => [column, typeof row[column] === 'boolean' ? Number(row[column]) : row[column]]),
    ),
  );
}

/** Downloads a backup of the server through GET /v1/server/backup with the admin token of its data folder. */
export async function downloadBackup(server: { url: string; dataDir: string }, file: string): Promise<void> {
  const token = readFileSync(join(server.dataDir, ADMIN_TOKEN_FILE), 'utf8').trim();
  const res = await fetch(`${server.url}/v1/server/backup`, { headers: { authorization: `Bearer ${token}` } });
  expect(
    res.status,
    await res
      .clone()
      .text()
      .catch(() => ''),
  ).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/gzip');
  await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
}
