// During the move to the asynchronous store only: what has not moved yet imports this; secrets.ts has the new one.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/connection.js';
import { serverSecrets } from '../db/schema/server-secrets.js';
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
