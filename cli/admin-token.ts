import { ADMIN_TOKEN_FILE, readAdminToken } from '../server/backups/admin-token-file.js';
import { CommandError } from './errors.js';
import type { CliIo } from './io.js';

/** SWITCHBOARD_ADMIN_TOKEN, else the data folder's file (where a server on this machine keeps it), else undefined. */
export function findAdminToken(io: CliIo, dataDir: string): string | undefined {
  if (io.env.SWITCHBOARD_ADMIN_TOKEN) return io.env.SWITCHBOARD_ADMIN_TOKEN;
  try {
    return readAdminToken(dataDir);
  } catch {
    return undefined;
  }
}

/** The admin token, as findAdminToken finds it; a command that cannot go on without it stops saying where to put it. */
export function adminToken(io: CliIo, dataDir: string): string {
  if (io.env.SWITCHBOARD_ADMIN_TOKEN) return io.env.SWITCHBOARD_ADMIN_TOKEN;
  try {
    return readAdminToken(dataDir);
  } catch (err) {
    throw new CommandError(
      `cannot read the admin token ${dataDir}/${ADMIN_TOKEN_FILE} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): ` +
        'give the data folder of the server with --data-dir, or its token in SWITCHBOARD_ADMIN_TOKEN',
    );
  }
}
