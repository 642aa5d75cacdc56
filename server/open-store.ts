import type { Logger } from 'pino';
import type { DatabaseFiles } from '../db/connection.js';
import { openSqliteStore } from '../db/sqlite-store.js';
import type { Store } from '../db/store.js';
import { createDatabaseAttachmentStorage } from './chat/attachments/database-storage.js';
import { type AttachmentStorage, createAttachmentStorage } from './chat/attachments/storage.js';
import type { Clock } from './clock.js';
import type { Snapshot } from './data-archive/snapshot.js';
import { createKeyRing, type KeyRing } from './key-ring.js';
import { deriveKeys, MAKE_A_SECRET_KEY, SecretKeyError } from './secret-key.js';
import { checkSecretKeys } from './secret-key-check.js';
import { SECRET_KEY_FILE } from './webhooks/secret-box.js';

export interface OpenedStore {
  store: Store;
  keys: KeyRing;
  /** Where attachment bytes are kept: files in the data folder beside SQLite, rows of the database on PostgreSQL. */
  attachmentStorage: AttachmentStorage;
  /** A consistent copy of everything the store holds, in the archive's format. */
  snapshot(): Promise<Snapshot>;
}

/**
 * Opens the server's store and what goes with it: SQLite in the data folder (keys made and kept there, attachment
 * bytes as files there), or, given a database URL, PostgreSQL (the secret key required, and checked against the
 * database's; attachment bytes in the database).
 */
export async function openServerStore(
  options: {
    dataDir: string;
    databaseUrl?: string;
    secretKey?: string;
    serverVersion: string;
    previousSecretKey?: string;
  },
  files: DatabaseFiles,
  clock: Clock,
  logger: Logger,
): Promise<OpenedStore> {
  const { dataDir, databaseUrl, secretKey, serverVersion, previousSecretKey } = options;
  if (!databaseUrl) {
    if (secretKey || previousSecretKey)
      logger.warn('The secret key is not used on SQLite: a server on SQLite keeps its keys in its data folder.');
    const store = await openSqliteStore(dataDir, files, serverVersion);
    let keys: KeyRing;
    try {
      keys = createKeyRing(store, clock, dataDir, undefined);
      await checkSecretKeys(store, keys.secretKeys, clock, `webhook-secrets key (${SECRET_KEY_FILE})`);
    } catch (err) {
      await store.close();
      throw err;
    }
    return {
      store,
      keys,
      attachmentStorage: createAttachmentStorage(dataDir),
      snapshot: async () => (await import('./data-archive/snapshot.js')).takeSnapshot(store.writer.$client, dataDir),
    };
  }
  if (!secretKey)
    throw new SecretKeyError(
      `A server on PostgreSQL needs a secret key (SWITCHBOARD_SECRET_KEY): ${MAKE_A_SECRET_KEY}.`,
    );
  const derived = {
    current: deriveKeys(secretKey),
    ...(previousSecretKey && { previous: deriveKeys(previousSecretKey, 'previous secret key') }),
  };
  // Imported only here: a server on SQLite (the desktop app, `npm start`) never loads the PostgreSQL driver.
  const { openPostgresStore } = await import('../db/postgres-store.js');
  const store = await openPostgresStore({
    url: databaseUrl,
    migrationsFolder: files.postgresMigrationsFolder,
    serverVersion,
    onIdleError: (err) => logger.warn({ err }, 'a pooled PostgreSQL connection failed; it will be replaced'),
  });
  const keys = createKeyRing(store, clock, dataDir, derived);
  try {
    await checkSecretKeys(store, keys.secretKeys, clock, 'secret key');
  } catch (err) {
    await store.close();
    throw err;
  }
  return {
    store,
    keys,
    attachmentStorage: createDatabaseAttachmentStorage(store),
    snapshot: async () => (await import('./data-archive/store-snapshot.js')).takeStoreSnapshot(store, keys),
  };
}
