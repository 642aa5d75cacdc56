import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { DATABASE_FILE, openSqliteFile } from '../../db/connection.js';
import { appDatabaseFiles } from '../app-files/database-files.js';

const count = (sqlite: Database.Database, table: string): number => {
  const exists = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  return exists ? (sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n : 0;
};

/**
 * What the database holds that a person made, for the refusal messages of import and seeds: accounts
 * and projects (everything else belongs to one of them). A server that was started but never used
 * holds neither, so its folder counts as empty; null means empty.
 */
export function describeContents(sqlite: Database.Database): string | null {
  const accounts = count(sqlite, 'users');
  const projects = count(sqlite, 'projects');
  if (!accounts && !projects) return null;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(accounts, 'account')} and ${plural(projects, 'project')}`;
}

/** `describeContents` of a data folder no server is using; null when it is empty. */
export function describeDataDir(dataDir: string): string | null {
  const databaseFile = join(dataDir, DATABASE_FILE);
  if (existsSync(databaseFile)) {
    const sqlite = openSqliteFile(databaseFile, {
      readonly: true,
      fileMustExist: true,
      nativeBinding: appDatabaseFiles().nativeBinding,
    });
    try {
      const contents = describeContents(sqlite);
      if (contents) return contents;
    } finally {
      sqlite.close();
    }
  }
  const attachments = join(dataDir, 'attachments');
  if (existsSync(attachments) && readdirSync(attachments).length) return 'attachment files';
  return null;
}
