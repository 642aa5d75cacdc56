import { randomBytes, timingSafeEqual } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_TOKEN_FILE, readAdminToken } from './admin-token-file.js';

/**
 * The server's admin token, in its data folder, readable by its owner alone. It authorizes what no
 * project role can: a backup holds every project, every account and the server's signing keys. So
 * whoever may read the data folder (and could copy the database anyway) may take a backup, and
 * nobody else, whatever accounts they hold.
 */
export const ADMIN_TOKEN_PREFIX = 'sbadmin_';

/**
 * The token of a server on PostgreSQL: derived from the secret key, so that every node of a cluster accepts the same
 * one (`derived` is the key derived for it). Written to the data folder too, where the CLI looks for it.
 */
export function writeDerivedAdminToken(dataDir: string, derived: Buffer): string {
  const token = `${ADMIN_TOKEN_PREFIX}${derived.toString('base64url')}`;
  writeFileSync(join(dataDir, ADMIN_TOKEN_FILE), `${token}\n`, { mode: 0o600 });
  return token;
}

/** Reads the token, creating it (0600) on first use. */
export function loadOrCreateAdminToken(dataDir: string): string {
  const path = join(dataDir, ADMIN_TOKEN_FILE);
  try {
    writeFileSync(path, `${ADMIN_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readAdminToken(dataDir);
}

export function isAdminToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
