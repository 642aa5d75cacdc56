import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { serverSecrets } from '../db/schema/server-secrets.js';
import type { Store } from '../db/store.js';
import type { Clock } from './clock.js';

/**
 * A 256-bit key generated on first use and kept in the database, so tokens signed with it survive
 * a restart. Each kind of token has its own key: one can never pass for another.
 */
export async function loadOrCreateSecret(store: Store, clock: Clock, name: string): Promise<Uint8Array> {
  const [existing] = await store.db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).limit(1);
  if (existing) return Buffer.from(existing.value, 'base64');
  const value = randomBytes(32);
  const stored = await store.transaction(async (tx) => {
    await tx
      .insert(serverSecrets)
      .values({ name, value: value.toString('base64'), createdAt: clock.now() })
      .onConflictDoNothing();
    // Another process may have won the race; the stored value is the one to use.
    const [row] = await tx.select().from(serverSecrets).where(eq(serverSecrets.name, name)).limit(1);
    return row;
  });
  return Buffer.from(stored?.value ?? value.toString('base64'), 'base64');
}

/**
 * The key, read (or made) when it is first needed and kept after: services are made synchronously, before anything
 * is awaited. A failed read is not kept, so the next use tries again.
 */
export function secretOnFirstUse(store: Store, clock: Clock, name: string): () => Promise<Uint8Array> {
  let secret: Promise<Uint8Array> | undefined;
  return () => {
    secret ??= loadOrCreateSecret(store, clock, name).catch((err: unknown) => {
      secret = undefined;
      throw err;
    });
    return secret;
  };
}

/** What `make` builds from a key loaded on first use (KeyRing.signingKey), built once; a failed load is tried again. */
export function madeFromKey<T>(key: () => Promise<Uint8Array>, make: (key: Uint8Array) => T): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= key()
      .then(make)
      .catch((err: unknown) => {
        made = undefined;
        throw err;
      });
    return made;
  };
}
