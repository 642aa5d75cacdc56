import type { LiveEvent, LiveEventStream, LiveEventType } from '../../sdk/index.js';

export type LiveEventOf<T extends LiveEventType> = Extract<LiveEvent, { type: T }>;

/** Reads a live event stream in the background; tests wait for what they expect to arrive. */
export function watchEvents(stream: LiveEventStream) {
  const events: LiveEvent[] = [];
  let failure: unknown;
  const ended = (async () => {
    try {
      for await (const event of stream) events.push(event);
    } catch (err) {
      failure = err;
    }
  })();
  return {
    events,
    /** Resolves when the loop over the stream ends, with what it threw (undefined when it ended cleanly). */
    ended: ended.then(() => failure),
    /** The first event of `type` that `where` accepts, once it has arrived (fails after `timeoutMs`). */
    async waitFor<T extends LiveEventType>(
      type: T,
      where: (event: LiveEventOf<T>) => boolean = () => true,
      timeoutMs = 5000,
    ): Promise<LiveEventOf<T>> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find((e): e is LiveEventOf<T> => e.type === type && where(e as LiveEventOf<T>));
        if (found) return found;
        if (Date.now() > deadline || failure)
          throw new Error(`no matching ${type} event; got ${JSON.stringify(events)} ${failure ?? ''}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}
