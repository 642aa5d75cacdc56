import { eq } from 'drizzle-orm';
import { serverSecrets } from '../db/schema/server-secrets.js';
import type { Store } from '../db/store.js';
import type { Clock } from './clock.js';
import { type DerivedKeys, SecretKeyError } from './secret-key.js';

const FINGERPRINT = 'secret-key-fingerprint';

/**
 * Refuses to start on a database written with another secret key: its webhook secrets could not be opened and the
 * tokens it issued would stop working, only later and one by one. A new database takes this key's fingerprint.
 */
export async function checkSecretKey(store: Store, keys: DerivedKeys, clock: Clock): Promise<void> {
  const stored = await store.transaction(async (tx) => {
    const [row] = await tx.select().from(serverSecrets).where(eq(serverSecrets.name, FINGERPRINT)).limit(1);
    if (row) return row.value;
    await tx.insert(serverSecrets).values({ name: FINGERPRINT, value: keys.fingerprint, createdAt: clock.now() });
    return keys.fingerprint;
  });
  if (stored !== keys.fingerprint)
    throw new SecretKeyError(
      'The secret key is not the one this database was written with: start with that one (its webhook secrets and ' +
        'tokens cannot be read with another).',
    );
}
