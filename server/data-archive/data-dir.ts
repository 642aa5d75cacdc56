import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, openSqliteFile } from '../../db/connection.js';
import { countRows, type SqliteFile } from '../../db/sqlite-files.js';
import { appDatabaseFiles } from '../app-files/database-files.js';

/**
 * What the database holds that a person made, for the refusal messages of import and seeds: accounts
 * and projects (everything else belongs to one of them). A server that was started but never used
 * holds neither, so its folder counts as empty; null means empty.
 */
export function describeContents(sqlite: SqliteFile): string | null {
  const accounts = countRows(sqlite, 'users');
  const projects = countRows(sqlite, 'projects');
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
