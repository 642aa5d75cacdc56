import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { DATABASE_FILE } from '../../db/connection.js';
import { ADMIN_TOKEN_FILE } from '../../server/backups/admin-token-file.js';

/** Every table of a data folder's database, read from the database itself (so a new table is never forgotten). */
export function tableNames(dataDir: string): string[] {
  const sqlite = new Database(join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    return (
      sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all() as { name: string }[]
    ).map((row) => row.name);
  } finally {
    sqlite.close();
  }
}

/** Each table's rows (as sorted JSON lines, so that row order does not matter). */
export function tableContents(dataDir: string): Record<string, string[]> {
  const sqlite = new Database(join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    return Object.fromEntries(
      tableNames(dataDir).map((table) => [
        table,
        (sqlite.prepare(`SELECT * FROM "${table}"`).all() as unknown[]).map((row) => JSON.stringify(row)).sort(),
      ]),
    );
  } finally {
    sqlite.close();
  }
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
