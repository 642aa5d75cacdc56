import { desc, gt, sql } from 'drizzle-orm';
import { prepareOnFirstUse } from '../../db/prepare-on-first-use.js';
import { environmentFaults } from '../../db/schema/test-tools.js';
import { type EnvironmentScope, inScopePrepared, projectScopeKeys, scopeKey } from '../../db/scope.js';
import type { Infrastructure } from '../context.js';
import type { FaultKind } from './schemas.js';

export type FaultRow = typeof environmentFaults.$inferSelect;

/** Scopes whose faults are kept in memory; past it the cache starts over (a safety net: scopes are few). */
const MAX_CACHED_SCOPES = 10_000;
const NONE: readonly FaultRow[] = Object.freeze([]);

/**
 * The faults in force in each environment, as every runtime request and webhook attempt asks: from memory after the
 * first read of a scope (most have none, and a request must not pay a query to learn it). The copy is exact: every
 * change goes through the fault service, which emits `environment.faults_changed` after its commit, and every node
 * drops its copy of the scope then; a read that such a change overtook is not kept. While the bus is lost, no node
 * hears the others, so the copy is not used (each ask reads the store) and it starts empty when the bus is back.
 * Expiry needs no event: rows are kept with their `expiresAt` and compared with the injected clock at each ask.
 */
export function createFaultRules({ store, clock, events, cluster }: Infrastructure, random: () => number) {
  const activeIn = prepareOnFirstUse(() =>
    store.db
      .select()
      .from(environmentFaults)
      .where(inScopePrepared(environmentFaults, gt(environmentFaults.expiresAt, sql.placeholder('now'))))
      .orderBy(desc(environmentFaults.id))
      .prepare(),
  );
  const cached = new Map<string, readonly FaultRow[]>();
  /** How often each scope's copy was dropped: a read is kept only if this did not move while it ran. */
  const drops = new Map<string, number>();

  function drop(key: string): void {
    cached.delete(key);
    drops.set(key, (drops.get(key) ?? 0) + 1);
  }
  events.on('environment.faults_changed', (scope) => drop(scopeKey(scope)));
  events.on('project.deleted', ({ projectId }) => {
    for (const key of projectScopeKeys(projectId)) if (cached.has(key)) drop(key);
  });
  cluster.onBusChange(() => {
    for (const key of [...cached.keys()]) drop(key);
  });

  async function load(scope: EnvironmentScope, key: string, trusted: boolean): Promise<readonly FaultRow[]> {
    const before = drops.get(key) ?? 0;
    // Read with the unexpired ones of now; kept until they expire (filtered at each ask) or the scope changes.
    const rows: readonly FaultRow[] = await activeIn.execute({ ...scope, now: clock.now() });
    if (trusted && (drops.get(key) ?? 0) === before) {
      if (cached.size >= MAX_CACHED_SCOPES) cached.clear();
      cached.set(key, rows.length === 0 ? NONE : rows);
    }
    return rows;
  }

  const unexpired = (rows: readonly FaultRow[]) => {
    if (rows.length === 0) return rows;
    const now = clock.now();
    return rows.every((row) => row.expiresAt > now) ? rows : rows.filter((row) => row.expiresAt > now);
  };

  /** The scope's unexpired faults, newest first: at once from memory when it can (no promise), else read. */
  function of(scope: EnvironmentScope): readonly FaultRow[] | Promise<readonly FaultRow[]> {
    const key = scopeKey(scope);
    const trusted = cluster.busStatus() !== 'down';
    const known = trusted ? cached.get(key) : undefined;
    if (known) return unexpired(known);
    return load(scope, key, trusted).then(unexpired);
  }

  /** Whether one draw falls in a share of `percent` out of 100. */
  const drawn = (percent: number) => percent >= 100 || random() * 100 < percent;

  return {
    of,
    drawn,
    /**
     * The first fault of `kind` among `rules` (newest first) whose share this draw falls in: each rule of the kind
     * draws on its own, so that two rules of 50% apply to about three quarters.
     */
    pick(rules: readonly FaultRow[], kind: FaultKind): FaultRow | undefined {
      for (const rule of rules) if (rule.kind === kind && drawn(rule.percent)) return rule;
      return undefined;
    },
  };
}

export type FaultRules = ReturnType<typeof createFaultRules>;
