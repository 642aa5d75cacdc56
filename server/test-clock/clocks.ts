import { environmentClocks } from '../../db/schema/test-tools.js';
import { type EnvironmentScope, inScope, scopeKey } from '../../db/scope.js';
import type { Infrastructure } from '../context.js';

/** An environment's test clock as the store has it; none is real time. */
export interface EnvironmentClockState {
  /** Milliseconds ahead of real time. */
  offsetMs: number;
  /** When it was last advanced (real time), or null when it runs on real time. */
  advancedAt: number | null;
}

const REAL_TIME: EnvironmentClockState = { offsetMs: 0, advancedAt: null };

/**
 * Each environment's "now": real time (the injected clock) plus the offset its test clock was advanced by
 * (`environment_clocks`). Production's is always real time, never read from the store.
 *
 * Asked for every token verified and every metric counted, so the table is kept in memory whole: it holds a row
 * only for the development and staging environments whose clock was advanced, a handful. The copy is dropped when
 * any clock changes (`environment.clock_changed`, heard from every node), when a project is deleted and when the
 * bus comes back, and is not used while the bus is down (changes made elsewhere would not reach it): then each
 * question reads its one row.
 */
export function createEnvironmentClocks({ store, clock, events, cluster, logger }: Infrastructure) {
  let table: Map<string, EnvironmentClockState> | undefined;
  let loading: Promise<Map<string, EnvironmentClockState>> | undefined;
  /** How often the copy was dropped: a read that a drop overtook is not kept. */
  let drops = 0;

  async function readTable(): Promise<Map<string, EnvironmentClockState>> {
    const rows = await store.db.select().from(environmentClocks);
    return new Map(rows.map((row) => [scopeKey(row), { offsetMs: row.offsetMs, advancedAt: row.updatedAt }]));
  }

  async function readOne(scope: EnvironmentScope): Promise<EnvironmentClockState> {
    const [row] = await store.db.select().from(environmentClocks).where(inScope(environmentClocks, scope)).limit(1);
    return row ? { offsetMs: row.offsetMs, advancedAt: row.updatedAt } : REAL_TIME;
  }

  function load(): Promise<Map<string, EnvironmentClockState>> {
    if (loading) return loading;
    const before = drops;
    const read = readTable().then((rows) => {
      if (drops === before && cluster.busStatus() !== 'down') table = rows;
      return rows;
    });
    loading = read;
    void read
      .catch(() => {})
      .finally(() => {
        if (loading === read) loading = undefined;
      });
    return read;
  }

  function drop(): void {
    drops++;
    table = undefined;
    loading = undefined;
    // Read again at once, so that the metrics counted next (synchronously, `peekOffset`) find the new offset.
    load().catch((err: unknown) => logger.debug({ err }, 'environment clocks: could not read them again'));
  }
  events.on('environment.clock_changed', drop);
  events.on('project.deleted', drop);
  cluster.onBusChange(drop);

  async function state(scope: EnvironmentScope): Promise<EnvironmentClockState> {
    if (scope.environment === 'production') return REAL_TIME;
    if (cluster.busStatus() === 'down') return readOne(scope);
    return (table ?? (await load())).get(scopeKey(scope)) ?? REAL_TIME;
  }

  return {
    /** The environment's clock: its offset and when it was last advanced. */
    state,

    /** Milliseconds the environment's clock runs ahead of real time (0 for real time). */
    async offset(scope: EnvironmentScope): Promise<number> {
      return (await state(scope)).offsetMs;
    },

    /** The environment's now, in milliseconds since the epoch. */
    async now(scope: EnvironmentScope): Promise<number> {
      const { offsetMs } = await state(scope);
      return clock.now() + offsetMs;
    },

    /**
     * The offset from memory, for what cannot wait (counting a metric): undefined when the copy is not there (being
     * read again after a change, or the bus is down), and the caller must ask `offset`.
     */
    peekOffset(scope: EnvironmentScope): number | undefined {
      if (scope.environment === 'production') return 0;
      if (!table || cluster.busStatus() === 'down') return undefined;
      return table.get(scopeKey(scope))?.offsetMs ?? 0;
    },
  };
}

export type EnvironmentClocks = ReturnType<typeof createEnvironmentClocks>;
