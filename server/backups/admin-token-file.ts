import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the server's admin token lives in its data folder, and how the CLI reads it: apart from admin-token.ts,
 * whose node:crypto would otherwise load with every CLI command (≈2 ms of `switchboard --help`).
 */
export const ADMIN_TOKEN_FILE = 'admin-token';

/** The token of a data folder, as the CLI reads it; throws when missing or unreadable. */
export function readAdminToken(dataDir: string): string {
  return readFileSync(join(dataDir, ADMIN_TOKEN_FILE), 'utf8').trim();
}
