import { and, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import { metricBuckets } from '../../db/schema/observability.js';
import { projects } from '../../db/schema/projects.js';
import { type EnvironmentScope, inScope, isInScope } from '../../db/scope.js';
import type { Queries } from '../../db/store.js';
import type { Infrastructure } from '../context.js';
import type { EnvironmentClocks } from '../test-clock/clocks.js';

export const METRIC_NAMES = [
  'requests',
  'errors',
  'messages',
  'connections',
  'webhook.succeeded',
  'webhook.failed',
  'telemetry',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

export const MINUTE_MS = 60_000;
/** Buckets older than this go: long enough for the usage of the current and the previous month. */
export const METRIC_RETENTION_MS = 62 * 24 * 60 * MINUTE_MS;
const PRUNE_EVERY_MS = 60 * MINUTE_MS;

export const minuteOf = (ms: number) => ms - (ms % MINUTE_MS);

interface Pending extends EnvironmentScope {
  name: MetricName;
  minute: number;
  value: number;
}

/** name → minute → value */
export type MetricValues = Map<MetricName, Map<number, number>>;

/**
 * Per-minute counters. Counting is a map update in memory (never a database write per request);
 * `flush()` adds what was counted to `metric_buckets` in one transaction, and reads merge the
 * table with what is not flushed yet, so a read never lags behind the counting.
 */
export function createMetrics(
  { store, clock, logger }: Pick<Infrastructure, 'store' | 'clock' | 'logger'>,
  clocks: Pick<EnvironmentClocks, 'peekOffset' | 'offset'>,
) {
  const { db } = store;
  let pending = new Map<string, Pending>();
  /** What the flush under way writes; what the forget* calls below drop meanwhile is not written. */
  let flushing = new Map<string, Pending>();
  let lastPrune = 0;

  /**
   * Flushes and reads run one at a time: a read during a flush would find the flushed counts neither in memory
   * (taken out) nor in the table (not committed yet), or in both.
   */
  let turn: Promise<unknown> = Promise.resolve();
  function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const run = turn.then(work);
    turn = run.catch(() => {});
    return run;
  }

  /**
   * Counts in the minute of the environment's clock (its test clock, advanced or not). Known in memory nearly always;
   * just after a clock changed (or while the bus is down) it is read first, and the count lands a moment later.
   */
  function count(scope: EnvironmentScope, name: MetricName, n = 1): void {
    const at = clock.now();
    const offset = clocks.peekOffset(scope);
    if (offset !== undefined) {
      countIn(scope, name, minuteOf(at + offset), n);
      return;
    }
    clocks.offset(scope).then(
      (later) => countIn(scope, name, minuteOf(at + later), n),
      () => countIn(scope, name, minuteOf(at), n),
    );
  }

  function countIn(scope: EnvironmentScope, name: MetricName, minute: number, n: number): void {
    const key = `${scope.projectId}\u0000${scope.environment}\u0000${name}\u0000${minute}`;
    const entry = pending.get(key);
    if (entry) entry.value += n;
    else pending.set(key, { projectId: scope.projectId, environment: scope.environment, name, minute, value: n });
  }

  /**
   * Adds the counts being flushed to the table; answers the projects written. A project deleted in between is left
   * out (its counts go with it, the others stay) rather than caught failing: on PostgreSQL a failed statement ends
   * the whole transaction.
   */
  async function writeFlushing(tx: Queries, projectIds: string[]): Promise<Set<string>> {
    const existing = await tx.select({ id: projects.id }).from(projects).where(inArray(projects.id, projectIds));
    const kept = new Set(existing.map((project) => project.id));
    for (const row of flushing.values()) {
      if (!kept.has(row.projectId)) continue;
      await tx
        .insert(metricBuckets)
        .values(row)
        .onConflictDoUpdate({
          target: [metricBuckets.projectId, metricBuckets.environment, metricBuckets.name, metricBuckets.minute],
          set: { value: sql`${metricBuckets.value} + excluded.value` },
        });
    }
    return kept;
  }

  const flush = (): Promise<void> =>
    oneAtATime(async () => {
      const now = clock.now();
      if (pending.size > 0) {
        flushing = pending;
        pending = new Map();
        const projectIds = [...new Set([...flushing.values()].map((row) => row.projectId))];
        let written: Set<string>;
        try {
          written = await store.transaction((tx) => writeFlushing(tx, projectIds));
        } finally {
          flushing = new Map();
        }
        for (const projectId of projectIds) {
          if (!written.has(projectId)) logger.warn({ projectId }, 'metric buckets of a deleted project not written');
        }
      }
      if (now - lastPrune >= PRUNE_EVERY_MS) {
        lastPrune = now;
        await store.transaction((tx) =>
          tx.delete(metricBuckets).where(lt(metricBuckets.minute, now - METRIC_RETENTION_MS)),
        );
      }
    });

  /** The counts of minutes `from..to` (inclusive), table and unflushed counts together. */
  const read = (scope: EnvironmentScope, from: number, to: number): Promise<MetricValues> =>
    oneAtATime(async () => {
      const values: MetricValues = new Map(METRIC_NAMES.map((name) => [name, new Map()]));
      const add = (name: string, minute: number, value: number) => {
        const series = values.get(name as MetricName);
        if (series) series.set(minute, (series.get(minute) ?? 0) + value);
      };
      const rows = await db
        .select()
        .from(metricBuckets)
        .where(inScope(metricBuckets, scope, and(gte(metricBuckets.minute, from), lte(metricBuckets.minute, to))));
      for (const row of rows) add(row.name, row.minute, row.value);
      for (const p of pending.values()) {
        if (
          p.projectId === scope.projectId &&
          p.environment === scope.environment &&
          p.minute >= from &&
          p.minute <= to
        )
          add(p.name, p.minute, p.value);
      }
      return values;
    });

  /** A deleted project's counts are dropped, not flushed (its rows are gone with it). */
  function forgetProject(projectId: string): void {
    for (const counts of [pending, flushing]) {
      for (const [key, p] of counts) if (p.projectId === projectId) counts.delete(key);
    }
  }

  /** A reset environment's counts are dropped, not flushed: they counted what the reset removed. */
  function forgetEnvironment(scope: EnvironmentScope): void {
    for (const counts of [pending, flushing]) {
      for (const [key, p] of counts) if (isInScope(p, scope)) counts.delete(key);
    }
  }

  return { count, flush, read, forgetProject, forgetEnvironment };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Sum of one or more metrics over every minute `read` answered. */
export function sumOf(values: MetricValues, names: MetricName[]): number {
  let sum = 0;
  for (const name of names) for (const v of values.get(name)?.values() ?? []) sum += v;
  return sum;
}
