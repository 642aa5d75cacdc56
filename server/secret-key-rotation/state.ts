import { count, eq, isNull, ne, or } from 'drizzle-orm';
import { serverSecrets } from '../../db/schema/server-secrets.js';
import { webhookEndpoints } from '../../db/schema/webhooks.js';
import type { Queries } from '../../db/store.js';
import type { Clock } from '../clock.js';
import { shortKeyId } from '../secret-key.js';

/**
 * The id of the key the database uses (server_secrets): what this server seals with, and what the rows without a key
 * id of their own were sealed with. A database takes its first server's key.
 */
export const KEY_IN_USE = 'secret-key-fingerprint';
/** The id of the key a rotation replaced, from its switch until no row needs that key any more. */
export const KEY_REPLACED = 'secret-key-previous-fingerprint';
/** The id of the key the last rotation replaced, once done: so that a server given it alone is told what happened. */
export const KEY_RETIRED = 'secret-key-retired-fingerprint';
/** `<node id> <until, ms>`: the node re-sealing rows, so that one node at a time does. */
export const ROTATION_LEASE = 'secret-key-rotation-lease';

export async function readSecret(db: Queries, name: string): Promise<string | undefined> {
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).limit(1);
  return row?.value;
}

export async function writeSecret(tx: Queries, clock: Clock, name: string, value: string): Promise<void> {
  await tx
    .insert(serverSecrets)
    .values({ name, value, createdAt: clock.now() })
    .onConflictDoUpdate({ target: serverSecrets.name, set: { value, createdAt: clock.now() } });
}

export async function deleteSecret(tx: Queries, name: string): Promise<void> {
  await tx.delete(serverSecrets).where(eq(serverSecrets.name, name));
}

/** Rows sealed before key ids were recorded were sealed with the key the database used: they say so from now on. */
export async function recordUnnamedKeys(tx: Queries, keyInUse: string): Promise<void> {
  await tx.update(webhookEndpoints).set({ secretKeyId: keyInUse }).where(isNull(webhookEndpoints.secretKeyId));
}

/** The ids of the keys that sealed the database's webhook secrets, with how many each sealed. */
export async function keysOfRows(db: Queries): Promise<Map<string | null, number>> {
  const rows = await db
    .select({ keyId: webhookEndpoints.secretKeyId, rows: count() })
    .from(webhookEndpoints)
    .groupBy(webhookEndpoints.secretKeyId);
  return new Map(rows.map(({ keyId, rows: n }) => [keyId, Number(n)]));
}

/** Rows not sealed with `keyId`. */
export const notSealedWith = (keyId: string) =>
  or(isNull(webhookEndpoints.secretKeyId), ne(webhookEndpoints.secretKeyId, keyId));

/** Where a rotation stands, as the node asked sees it (the node list's `secretKey`, `switchboard status`). */
export interface RotationStatus {
  /** The key the database uses: its id's first characters. */
  inUse: string;
  /** During a rotation, the key it replaces, until no row needs it. */
  replaced: string | null;
  /** Webhook secrets not sealed with the key in use. */
  pending: number;
  /**
   * `none`: one key; `waiting`: this node holds a new key, and the database switches to it once every node does;
   * `rotating`: secrets are being sealed again; `done`: nothing needs the previous key, which this node still holds.
   */
  rotation: 'none' | 'waiting' | 'rotating' | 'done';
}

export async function rotationStatus(
  db: Queries,
  keys: { current: string; previous: string | undefined },
): Promise<RotationStatus> {
  const inUse = (await readSecret(db, KEY_IN_USE)) ?? keys.current;
  const replaced = (await readSecret(db, KEY_REPLACED)) ?? null;
  const [{ pending }] = await db.select({ pending: count() }).from(webhookEndpoints).where(notSealedWith(inUse));
  const rotation = replaced
    ? 'rotating'
    : keys.previous === undefined
      ? 'none'
      : inUse === keys.previous
        ? 'waiting'
        : Number(pending) === 0
          ? 'done'
          : 'rotating';
  return { inUse: shortKeyId(inUse), replaced: replaced && shortKeyId(replaced), pending: Number(pending), rotation };
}
