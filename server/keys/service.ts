import { timingSafeEqual } from 'node:crypto';
import { eq, isNull, sql } from 'drizzle-orm';
import { prepareOnFirstUse } from '../../db/prepare-on-first-use.js';
import { apiKeys } from '../../db/schema/api-keys.js';
import type { Environment } from '../../db/schema/environment.js';
import { type EnvironmentScope, inScope, scopeValues } from '../../db/scope.js';
import type { Actor } from '../audit/actor.js';
import type { AuditService } from '../audit/service.js';
import type { Infrastructure } from '../context.js';
import { notFound } from '../errors.js';
import type { KeyAuth } from '../http/route.js';
import { generateKeyText, hashSecret, type NewKeyText, parseKeyText } from './key-text.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** `lastUsedAt` is written at most this often per key, so that reads do not each cost a write. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Bounds the cache below; past it the cache starts over (keys are few, so this is a safety net). */
const MAX_CACHED_KEYS = 10_000;

/** What authentication needs of an active key, kept in memory after its first use. */
interface ActiveKey {
  id: string;
  projectId: string;
  environment: Environment;
  secretHash: Buffer;
  lastUsedAt: number | null;
}

export function createKeyService({ store, clock, ids, events, cluster }: Infrastructure, audit: AuditService) {
  const { db } = store;
  // The hot path of every runtime request: prepared once.
  const findByPublicId = prepareOnFirstUse(() =>
    db
      .select({
        id: apiKeys.id,
        projectId: apiKeys.projectId,
        environment: apiKeys.environment,
        secretHash: apiKeys.secretHash,
        lastUsedAt: apiKeys.lastUsedAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .where(eq(apiKeys.publicId, sql.placeholder('publicId')))
      .prepare(),
  );
  /**
   * Active keys by public id. Key authentication runs on every runtime request, and reading the key
   * from the database was its main cost. The cache is exact, not eventually consistent: every way a key stops
   * being active (revoke, project deletion) goes through here and drops the entry after its commit, on this node at
   * once and on the others when the bus brings them the event (in well under a second). While the bus is lost, no
   * node hears the others: the cache is not used, and it starts empty when the bus is back. Unknown ids are never
   * cached.
   */
  const activeKeys = new Map<string, ActiveKey>();
  /**
   * Counts the drops: a key read before a revocation committed may come back after its entry was dropped, and is
   * then not cached.
   */
  let drops = 0;
  const dropWhere = (gone: (key: ActiveKey) => boolean) => {
    drops++;
    for (const [publicId, key] of activeKeys) if (gone(key)) activeKeys.delete(publicId);
  };
  events.on('project.deleted', ({ projectId }) => dropWhere((key) => key.projectId === projectId));
  events.on('api_key.revoked', ({ keyId }) => dropWhere((key) => key.id === keyId));
  cluster.onBusChange(() => dropWhere(() => true));

  async function loadActiveKey(publicId: string): Promise<ActiveKey | undefined> {
    const dropsBefore = drops;
    const [row] = await findByPublicId.execute({ publicId });
    if (!row || row.revokedAt !== null) return undefined;
    const key: ActiveKey = { ...row, secretHash: Buffer.from(row.secretHash, 'hex') };
    if (drops !== dropsBefore || cluster.busStatus() === 'down') return key;
    if (activeKeys.size >= MAX_CACHED_KEYS) activeKeys.clear();
    activeKeys.set(publicId, key);
    return key;
  }

  return {
    /** `given` is a key text chosen in advance (a seed's), already checked to be one of `input.environment`. */
    async create(
      actor: Actor,
      projectId: string,
      input: { name: string; environment: Environment },
      given?: NewKeyText,
    ) {
      const key = given ?? generateKeyText(input.environment);
      const row: ApiKeyRow = {
        id: ids.next('key'),
        ...scopeValues({ projectId, environment: input.environment }),
        name: input.name,
        publicId: key.publicId,
        secretHash: key.secretHash,
        createdById: actor.id,
        createdAt: clock.now(),
        lastUsedAt: null,
        revokedAt: null,
      };
      await store.transaction(async (tx) => {
        await tx.insert(apiKeys).values(row);
        await audit.record(tx, {
          projectId,
          actor,
          action: 'api_key.created',
          target: { type: 'api_key', id: row.id },
          environment: row.environment,
          details: { name: row.name },
        });
      });
      return { row, text: key.text };
    },

    /** Active keys of one environment, oldest first. */
    async list(scope: EnvironmentScope): Promise<ApiKeyRow[]> {
      return db
        .select()
        .from(apiKeys)
        .where(inScope(apiKeys, scope, isNull(apiKeys.revokedAt)))
        .orderBy(apiKeys.id);
    },

    /** Revocation takes effect on the next request: the key's cache entry is dropped when it commits. */
    async revoke(actor: Actor, scope: EnvironmentScope, keyId: string): Promise<void> {
      const revoked = await store.transaction(async (tx) => {
        const [row] = await tx
          .update(apiKeys)
          .set({ revokedAt: clock.now() })
          .where(inScope(apiKeys, scope, eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
          .returning({ name: apiKeys.name, publicId: apiKeys.publicId });
        if (!row) {
          throw notFound('SERVICE_API_KEY_NOT_FOUND', `No active API key ${keyId} in ${scope.environment}.`);
        }
        await audit.record(tx, {
          projectId: scope.projectId,
          actor,
          action: 'api_key.revoked',
          target: { type: 'api_key', id: keyId },
          environment: scope.environment,
          details: { name: row.name },
        });
        return row;
      });
      drops++;
      activeKeys.delete(revoked.publicId);
      events.emit('api_key.revoked', { projectId: scope.projectId, keyId });
    },

    /** The key's scope, taken from its stored record; null for unknown, revoked or wrong secrets. */
    async authenticate(text: string): Promise<KeyAuth | null> {
      const parsed = parseKeyText(text);
      if (!parsed) return null;
      const key =
        (cluster.busStatus() === 'down' ? undefined : activeKeys.get(parsed.publicId)) ??
        (await loadActiveKey(parsed.publicId));
      if (!key) return null;
      const actual = hashSecret(parsed.secret);
      if (actual.length !== key.secretHash.length || !timingSafeEqual(actual, key.secretHash)) return null;
      const now = clock.now();
      if (key.lastUsedAt === null || now - key.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
        // Noted before the write, so that the requests arriving while it waits for its turn do not write it again.
        key.lastUsedAt = now;
        await store.transaction(async (tx) => {
          await tx.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, key.id));
        });
      }
      return { kind: 'key', keyId: key.id, scope: { projectId: key.projectId, environment: key.environment } };
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
