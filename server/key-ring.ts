import type { Store } from '../db/store.js';
import { loadOrCreateAdminToken, writeDerivedAdminToken } from './backups/admin-token.js';
import type { Clock } from './clock.js';
import type { DerivedKeys } from './secret-key.js';
import { secretOnFirstUse } from './secrets.js';
import { createSecretBox, type SecretBox, secretBoxWithKey } from './webhooks/secret-box.js';

/**
 * The server's own keys, wherever they come from. On SQLite each is made once and kept: the token signing keys in
 * the database (server_secrets), the webhook-secrets key in a file of the data folder, beside the database rather
 * than in it. On PostgreSQL all derive from the secret key (SWITCHBOARD_SECRET_KEY), never stored at all.
 */
export interface KeyRing {
  /** The signing key of one kind of token (`session-signing-key`, `chat-signing-key`…), loaded when first needed. */
  signingKey(name: string): () => Promise<Uint8Array>;
  /** Seals and opens webhook endpoints' signing secrets. */
  webhookSecrets: SecretBox;
  /**
   * The server's admin token (server/backups/admin-token.ts), made when first asked for: kept in the data folder on
   * SQLite; on PostgreSQL derived from the secret key, the same on every node, and written to the data folder.
   */
  adminToken(): string;
}

export function createKeyRing(store: Store, clock: Clock, dataDir: string, derived: DerivedKeys | undefined): KeyRing {
  if (derived) {
    return {
      signingKey: (name) => {
        const key = derived.key(`token ${name}`);
        return () => Promise.resolve(key);
      },
      webhookSecrets: secretBoxWithKey(derived.key('webhook-secrets')),
      adminToken: () => writeDerivedAdminToken(dataDir, derived.key('admin-token')),
    };
  }
  return {
    signingKey: (name) => secretOnFirstUse(store, clock, name),
    webhookSecrets: createSecretBox(dataDir),
    adminToken: () => loadOrCreateAdminToken(dataDir),
  };
}
