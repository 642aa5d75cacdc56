import type { TransactionObserver } from './store.js';

/**
 * Runs an outermost transaction, telling `observer` (the metrics', when they are on) how long it took, its runs again
 * after conflicts included (the time its caller waited), and whether it committed. No observer: no clock read.
 */
export async function timedTransaction<T>(
  observer: TransactionObserver | undefined,
  run: () => Promise<T>,
): Promise<T> {
  if (!observer) return run();
  const started = performance.now();
  let committed = false;
  try {
    const result = await run();
    committed = true;
    return result;
  } finally {
    observer((performance.now() - started) / 1000, committed);
  }
}
