import type { Store } from '../db/store.js';
import type { Clock } from './clock.js';
import type { SecretKeys } from './key-ring.js';
import { SecretKeyError, shortKeyId } from './secret-key.js';
import {
  KEY_IN_USE,
  KEY_REPLACED,
  KEY_RETIRED,
  keysOfRows,
  readSecret,
  recordUnnamedKeys,
  writeSecret,
} from './secret-key-rotation/state.js';

/**
 * Refuses to start when the database needs a key this server does not hold: its webhook secrets could not be opened
 * and the tokens it issued would stop working, only later and one by one. A new database takes this key's id. Sets the
 * key the server seals with: the database's (during a rotation, the previous key until the switch).
 */
export async function checkSecretKeys(store: Store, keys: SecretKeys, clock: Clock, keyName: string): Promise<void> {
  const { inUse, replaced, retired, rowKeys } = await store.transaction(async (tx) => {
    let inUse = await readSecret(tx, KEY_IN_USE);
    if (!inUse) {
      inUse = keys.current;
      await writeSecret(tx, clock, KEY_IN_USE, inUse);
    }
    await recordUnnamedKeys(tx, inUse);
    const replaced = await readSecret(tx, KEY_REPLACED);
    return { inUse, replaced, retired: await readSecret(tx, KEY_RETIRED), rowKeys: await keysOfRows(tx) };
  });
  const held = [keys.current, keys.previous].filter((id) => id !== undefined);
  const untilDone = 'until `switchboard status` says the secret key rotation is done';
  if (!held.includes(inUse)) {
    if (replaced === keys.current)
      throw new SecretKeyError(
        `This database has moved to a new ${keyName} (${shortKeyId(inUse)}), which this server lacks: start it with ` +
          `the new one, and with this one as the previous key (${keys.previousHint}) ${untilDone}.`,
      );
    if (retired === keys.current)
      throw new SecretKeyError(
        `This database has moved to a new ${keyName} (${shortKeyId(inUse)}) and no longer needs this one: start ` +
          'with the new one.',
      );
    throw new SecretKeyError(
      `The ${keyName} is not the one this database was written with (${shortKeyId(inUse)}): start with that one ` +
        `(its webhook secrets and tokens cannot be read with another), or, to rotate to this one, with that one as ` +
        `the previous key (${keys.previousHint}).`,
    );
  }
  const missing = [...rowKeys.keys()].find((id) => id !== null && !held.includes(id));
  if (missing)
    throw new SecretKeyError(
      `Webhook secrets of this database are still sealed with the previous ${keyName} (${shortKeyId(missing)}): ` +
        `start with it as the previous key as well (${keys.previousHint}) ${untilDone}.`,
    );
  keys.sealing = inUse;
}
