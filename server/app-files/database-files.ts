import type { DatabaseFiles } from '../../db/connection.js';
import { appFiles } from './app-files.js';

/**
 * Switchboard's own database files, for db/ (which takes them from its caller): the migrations, the database a new
 * data folder starts from, and better-sqlite3's addon of the checkout or package, or those the single executable unpacks.
 */
export const appDatabaseFiles = (): DatabaseFiles => ({
  migrationsFolder: appFiles.migrationsFolder(),
  postgresMigrationsFolder: appFiles.postgresMigrationsFolder(),
  nativeBinding: appFiles.sqliteAddon(),
  newDatabase: appFiles.newDatabase(),
});
