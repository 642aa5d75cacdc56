import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../db/store.js';
import type { PreviousJwtSecret } from './auth/jwt.js';
import { loadOrCreateAdminToken, writeDerivedAdminToken } from './backups/admin-token.js';
import type { Clock } from './clock.js';
import type { DerivedKeys } from './secret-key.js';
import { secretOnFirstUse } from './secrets.js';
import {
  type BoxKey,
  createSecretBox,
  dataFolderKeys,
  PREVIOUS_SECRET_KEY_FILE,
  type SecretBox,
} from './webhooks/secret-box.js';

/**
 * Which keys this server holds, by id (a fingerprint: server/secret-key.ts), and which one it seals with. During a
 * rotation it holds two: the new one (`current`) and the one it replaces (`previous`); it seals with the key the
 * database uses (`sealing`: the previous one until every node holds the new one, server/secret-key-rotation/).
 */
export interface SecretKeys {
  readonly current: string;
  readonly previous: string | undefined;
  sealing: string;
  /** How the operator gives the previous key, for the messages that ask for it. */
  readonly previousHint: string;
  /** Drops the previous key once a rotation is done, where the server holds it itself (SQLite: its key file). */
  forgetPrevious?: () => void;
}

/**
 * The server's own keys, wherever they come from. On SQLite each is made once and kept: the token signing keys in
 * the database (server_secrets), the webhook-secrets key in a file of the data folder, beside the database rather
 * than in it. On PostgreSQL all derive from the secret key (SWITCHBOARD_SECRET_KEY), never stored at all.
 */
export interface KeyRing {
  /** The signing key of one kind of token (`session-signing-key`, `chat-signing-key`…), loaded when first needed. */
  signingKey(name: string): () => Promise<Uint8Array>;
  /**
   * During a rotation on PostgreSQL, the same kind's key derived from the previous secret key: tokens it signed are
   * still accepted until the server runs on the new key alone, and it signs until the database switches to the new
   * key (so that nodes not yet given the new one accept what this one signs). Undefined otherwise.
   */
  previousSigningKey(name: string): PreviousJwtSecret | undefined;
  /** Seals and opens webhook endpoints' signing secrets. */
  webhookSecrets: SecretBox;
  /**
   * The server's admin token (server/backups/admin-token.ts), made when first asked for: kept in the data folder on
   * SQLite; on PostgreSQL derived from the secret key, the same on every node, and written to the data folder.
   */
  adminToken(): string;
  secretKeys: SecretKeys;
}

export const SQLITE_PREVIOUS_KEY_HINT = `${PREVIOUS_SECRET_KEY_FILE} in the data folder`;
export const POSTGRES_PREVIOUS_KEY_HINT = '--previous-secret-key-file or SWITCHBOARD_PREVIOUS_SECRET_KEY';

function boxOf(keys: BoxKey[], previousHint: string): { box: SecretBox; secretKeys: SecretKeys } {
  const [current, previous] = keys;
  const secretKeys: SecretKeys = { current: current.id, previous: previous?.id, sealing: current.id, previousHint };
  return { box: createSecretBox(keys, () => secretKeys.sealing), secretKeys };
}

export function createKeyRing(
  store: Store,
  clock: Clock,
  dataDir: string,
  derived: { current: DerivedKeys; previous?: DerivedKeys } | undefined,
): KeyRing {
  if (derived) {
    const { current, previous } = derived;
    const keys = [current, ...(previous ? [previous] : [])].map((k) => ({
      id: k.fingerprint,
      key: k.key('webhook-secrets'),
    }));
    const { box, secretKeys } = boxOf(keys, POSTGRES_PREVIOUS_KEY_HINT);
    const tokenKey = (from: DerivedKeys, name: string) => {
      const key = from.key(`token ${name}`);
      return () => Promise.resolve(key);
    };
    return {
      signingKey: (name) => tokenKey(current, name),
      previousSigningKey: (name) =>
        previous && { key: tokenKey(previous, name), signsNow: () => secretKeys.sealing === previous.fingerprint },
      webhookSecrets: box,
      adminToken: () => writeDerivedAdminToken(dataDir, current.key('admin-token')),
      secretKeys,
    };
  }
  const { box, secretKeys } = boxOf(dataFolderKeys(dataDir), SQLITE_PREVIOUS_KEY_HINT);
  // Alone on its database, a server on SQLite may drop the previous key itself once nothing needs it.
  secretKeys.forgetPrevious = () => rmSync(join(dataDir, PREVIOUS_SECRET_KEY_FILE), { force: true });
  return {
    signingKey: (name) => secretOnFirstUse(store, clock, name),
    previousSigningKey: () => undefined,
    webhookSecrets: box,
    adminToken: () => loadOrCreateAdminToken(dataDir),
    secretKeys,
  };
}
