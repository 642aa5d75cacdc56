import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/connection.js';
import { serverSecrets } from '../db/schema/server-secrets.js';
import type { Store } from '../db/store.js';
import type { Clock } from './clock.js';

/**
 * A 256-bit key generated on first use and kept in the database, so tokens signed with it survive
 * a restart. Each kind of token has its own key: one can never pass for another.
 */
export function loadOrCreateSecret(db: Db, clock: Clock, name: string): Uint8Array {
  const existing = db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).get();
  if (existing) return Buffer.from(existing.value, 'base64');
  const value = randomBytes(32);
  db.insert(serverSecrets)
    .values({ name, value: value.toString('base64'), createdAt: clock.now() })
    .onConflictDoNothing()
    .run();
  // Another process may have won the race; the stored value is the one to use.
  const stored = db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).get();
  return Buffer.from(stored?.value ?? value.toString('base64'), 'base64');
}

/**
 * `loadOrCreateSecret` on the store, for services made before anything can be awaited: the key is read (or created)
 * on first use, and what `make` builds from it is made once. A failed load is tried again by the next use.
 */
export function storedSecret<T>(
  store: Store,
  clock: Clock,
  name: string,
  make: (key: Uint8Array) => T,
): () => Promise<T> {
  const read = async () => {
    const [row] = await store.db
      .select({ value: serverSecrets.value })
      .from(serverSecrets)
      .where(eq(serverSecrets.name, name))
      .limit(1);
    return row?.value;
  };
  async function load(): Promise<T> {
    const existing = await read();
    if (existing) return make(Buffer.from(existing, 'base64'));
    const value = randomBytes(32).toString('base64');
    await store.transaction(async (tx) => {
      await tx.insert(serverSecrets).values({ name, value, createdAt: clock.now() }).onConflictDoNothing();
    });
    // Another process may have won the race; the stored value is the one to use.
    return make(Buffer.from((await read()) ?? value, 'base64'));
  }
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}
