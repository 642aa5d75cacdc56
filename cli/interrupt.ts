/** Runs `run` with a signal that the first Ctrl-C (SIGINT) or SIGTERM aborts; the handlers go when it ends. */
export async function untilInterrupted<T>(run: (stopped: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await run(stop.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Resolves on the first Ctrl-C (SIGINT) or SIGTERM. */
export const interrupted = (): Promise<void> =>
  untilInterrupted(
    (stopped) => new Promise<void>((resolve) => stopped.addEventListener('abort', () => resolve(), { once: true })),
  );
