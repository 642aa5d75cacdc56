import { and, asc, eq, gt } from 'drizzle-orm';
import { webhookEndpoints } from '../../db/schema/webhooks.js';
import type { Infrastructure } from '../context.js';
import { shortKeyId } from '../secret-key.js';
import {
  deleteSecret,
  KEY_IN_USE,
  KEY_REPLACED,
  KEY_RETIRED,
  notSealedWith,
  ROTATION_LEASE,
  readSecret,
  recordUnnamedKeys,
  writeSecret,
} from './state.js';

/** How often a node given two keys looks at the rotation: whether it may switch, what is left to seal again. */
export const ROTATION_INTERVAL_MS = 2_000;
/** Rows sealed again per transaction: short enough that requests waiting on the database hardly notice. */
const BATCH = 100;
/** How long a node's claim to re-seal lasts without being renewed (each batch renews it). */
const LEASE_MS = 30_000;

export interface SecretKeyRotationJob {
  start(): void;
  /** One look now (tests, and the job's timer): switches, re-seals and says when the previous key may go. */
  runDue(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A secret key rotation, on every node started with two keys (server/key-ring.ts, SecretKeys). Three steps:
 * 1. the switch: once every live node holds the new key (their records, server/cluster/node-registry.ts), the
 *    database's key in use becomes the new one (the old one is recorded as replaced) and the nodes seal with it;
 * 2. one node at a time (a lease in server_secrets) seals every webhook secret not sealed with it again, in batches,
 *    each row in a transaction that checks it is unchanged, while the API goes on;
 * 3. when no row needs the replaced key and every node seals with the new one, the replaced key is forgotten and
 *    each node logs that it may restart without the previous key.
 */
export function createSecretKeyRotationJob({
  store,
  clock,
  logger,
  cluster,
  keys,
}: Pick<Infrastructure, 'store' | 'clock' | 'logger' | 'cluster' | 'keys'>): SecretKeyRotationJob {
  const { secretKeys, webhookSecrets } = keys;
  const said = new Set<string>();
  /** Logs a line once per node run: the job looks every two seconds. */
  const once = (line: string, fields: Record<string, unknown> = {}) => {
    if (said.has(line)) return;
    said.add(line);
    logger.info(fields, line);
  };
  const { current, previous } = secretKeys;

  async function takeLease(): Promise<boolean> {
    return store.transaction(async (tx) => {
      const held = await readSecret(tx, ROTATION_LEASE);
      const [owner, until] = held?.split(' ') ?? [];
      if (owner && owner !== cluster.nodeId && Number(until) > clock.now()) return false;
      await writeSecret(tx, clock, ROTATION_LEASE, `${cluster.nodeId} ${clock.now() + LEASE_MS}`);
      return true;
    });
  }

  async function releaseLease(): Promise<void> {
    await store.transaction(async (tx) => {
      const held = await readSecret(tx, ROTATION_LEASE);
      if (held?.startsWith(`${cluster.nodeId} `)) await deleteSecret(tx, ROTATION_LEASE);
    });
  }

  /** Seals again every row not sealed with the key in use; the number of rows this node could not open. */
  async function resealAll(): Promise<number> {
    let after = '';
    let unreadable = 0;
    let resealed = 0;
    for (;;) {
      const rows = await store.db
        .select({ id: webhookEndpoints.id, sealed: webhookEndpoints.secretCiphertext })
        .from(webhookEndpoints)
        .where(and(notSealedWith(current), gt(webhookEndpoints.id, after)))
        .orderBy(asc(webhookEndpoints.id))
        .limit(BATCH);
      if (rows.length === 0) {
        if (resealed > 0)
          logger.info({ resealed }, 'secret key rotation: webhook secrets sealed again with the new key');
        return unreadable;
      }
      after = rows[rows.length - 1].id;
      // Counted once committed: PostgreSQL may run a transaction again.
      const batch = await store.transaction(async (tx) => {
        const counts = { sealed: 0, unreadable: 0 };
        await writeSecret(tx, clock, ROTATION_LEASE, `${cluster.nodeId} ${clock.now() + LEASE_MS}`);
        for (const { id, sealed } of rows) {
          let secret: string;
          try {
            secret = webhookSecrets.open(sealed, id);
          } catch {
            counts.unreadable++;
            continue;
          }
          const again = webhookSecrets.seal(secret, id);
          counts.sealed++;
          // Unless changed meanwhile (deleted, or sealed again by a node whose lease this one took over).
          await tx
            .update(webhookEndpoints)
            .set({ secretCiphertext: again.sealed, secretKeyId: again.keyId })
            .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.secretCiphertext, sealed)));
        }
        return counts;
      });
      resealed += batch.sealed;
      unreadable += batch.unreadable;
    }
  }

  async function runDue(): Promise<void> {
    if (!previous) return;
    let inUse = await readSecret(store.db, KEY_IN_USE);
    if (inUse === previous) {
      const nodes = await cluster.nodes();
      const lacking = nodes.filter((node) => !node.secretKeys?.held.includes(current));
      if (lacking.length > 0) {
        once('secret key rotation: waiting for every node to hold the new key', {
          nodes: lacking.map((node) => `${node.host}:${node.port} ${node.id}`),
        });
        return;
      }
      const switched = await store.transaction(async (tx) => {
        if ((await readSecret(tx, KEY_IN_USE)) !== previous) return false; // another node switched first
        await recordUnnamedKeys(tx, previous);
        await writeSecret(tx, clock, KEY_IN_USE, current);
        await writeSecret(tx, clock, KEY_REPLACED, previous);
        return true;
      });
      if (switched)
        logger.info(
          { key: shortKeyId(current), replaced: shortKeyId(previous) },
          'secret key rotation: every node holds the new key, which seals from now on',
        );
      inUse = await readSecret(store.db, KEY_IN_USE);
    }
    if (inUse !== current) return;
    if (secretKeys.sealing !== current) {
      secretKeys.sealing = current;
      // The others wait for every node's record to say so before they call the rotation done.
      await cluster.announce();
    }
    if (!(await takeLease())) return;
    let unreadable: number;
    try {
      unreadable = await resealAll();
    } finally {
      await releaseLease();
    }
    if (unreadable > 0) {
      once(`secret key rotation: ${unreadable} webhook secrets open with neither key; they stay as they are`);
      return;
    }
    const sealingOld = (await cluster.nodes()).filter((node) => node.secretKeys?.sealing !== current);
    if (sealingOld.length > 0) return;
    await store.transaction(async (tx) => {
      await deleteSecret(tx, KEY_REPLACED);
      await writeSecret(tx, clock, KEY_RETIRED, previous);
    });
    // Nothing more to look at: the timer stops (a node restarted with the previous key again logs this once more).
    clearInterval(timer);
    if (secretKeys.forgetPrevious) {
      secretKeys.forgetPrevious();
      once('secret key rotation done: nothing depends on the previous key any more, whose file was deleted', {
        key: shortKeyId(current),
        previous: shortKeyId(previous),
      });
      return;
    }
    once(
      'secret key rotation done: nothing depends on the previous secret key any more; restart every node without it',
      { key: shortKeyId(current), previous: shortKeyId(previous) },
    );
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const safeRun = () => {
    if (running !== undefined) return;
    running = runDue()
      .catch((err: unknown) => logger.error({ err }, 'secret key rotation: a look failed; the next one tries again'))
      .finally(() => {
        running = undefined;
      });
  };
  return {
    start() {
      if (timer || !previous) return;
      safeRun();
      timer = setInterval(safeRun, ROTATION_INTERVAL_MS);
      timer.unref();
    },
    async runDue() {
      await running;
      await runDue();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
