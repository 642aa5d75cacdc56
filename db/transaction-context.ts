import { AsyncLocalStorage } from 'node:async_hooks';
import type { Queries } from './store.js';

/**
 * Which transaction the running code is inside, carried across its awaits: `store.db` answers the transaction there
 * (so that a helper reading through `db` sees the writes made before it in the same transaction), and a
 * `transaction()` there joins it instead of waiting for itself.
 */
export function transactionContext(outside: Queries) {
  const current = new AsyncLocalStorage<Queries>();
  /**
   * `outside` outside a transaction, the transaction inside one. A Proxy rather than a getter because services keep
   * `db` from their infrastructure; each property is read from the database of the moment and bound to it.
   */
  const db = new Proxy(outside, {
    get(_target, property) {
      const queries = current.getStore() ?? outside;
      const value = Reflect.get(queries, property, queries);
      return typeof value === 'function' ? value.bind(queries) : value;
    },
  });
  return {
    db,
    current: (): Queries | undefined => current.getStore(),
    run: <T>(tx: Queries, work: () => Promise<T>): Promise<T> => current.run(tx, work),
  };
}
