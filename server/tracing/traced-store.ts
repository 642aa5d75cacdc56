import { getTableName } from 'drizzle-orm';
import type { Store } from '../../db/store.js';
import { SPAN_KIND, type Tracing } from './tracing.js';

/**
 * The store, with a span for each write of its own begun inside a trace (a request's, an attempt's): the outermost
 * transaction (a nested one joins it, whatever runs in it), and an insert made alone, outside any transaction (a
 * message POST's one write). The statements inside a transaction are not spans: what a transaction holds the database
 * for is the figure that matters, and its statements are many and quick.
 */
export function tracedStore(store: Store, tracing: Tracing): Store {
  const system = store.dialect === 'postgres' ? 'postgresql' : 'sqlite';
  const transaction = {
    kind: SPAN_KIND.client,
    attributes: { 'db.system.name': system, 'db.operation.name': 'transaction' },
  };
  const insert = (table: Parameters<Store['insertRows']>[0]) => {
    const name = getTableName(table);
    return {
      name: `INSERT ${name}`,
      start: {
        kind: SPAN_KIND.client,
        attributes: { 'db.system.name': system, 'db.operation.name': 'INSERT', 'db.collection.name': name },
      },
    };
  };
  return {
    ...store,
    transaction: (work) =>
      store.inTransaction()
        ? store.transaction(work)
        : tracing.inChildSpan('transaction', transaction, () => store.transaction(work)),
    rowInsert(table) {
      const insertRow = store.rowInsert(table);
      const { name, start } = insert(table);
      return (row) => (store.inTransaction() ? insertRow(row) : tracing.inChildSpan(name, start, () => insertRow(row)));
    },
    insertRows(table, rows) {
      if (store.inTransaction()) return store.insertRows(table, rows);
      const { name, start } = insert(table);
      return tracing.inChildSpan(name, start, () => store.insertRows(table, rows));
    },
  };
}
