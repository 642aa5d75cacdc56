import type { ServerResponse } from 'node:http';

/** A comment line this often keeps proxies and clients from taking a quiet stream for a dead one. */
export const HEARTBEAT_MS = 15_000;
/** A client that stops reading is dropped once this much waits for it, rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Where a stream's records go: one Server-Sent Event each; `end` closes the response. */
export interface EventStreamSink<E> {
  send(event: E): void;
  end(): void;
}

export interface EventStreamOptions<E> {
  /** The SSE `event:` field of a record (its `data:` is the record as JSON). */
  nameOf(event: E): string;
  /**
   * Starts the flow of records into the sink and answers how to stop it. Called before anything is
   * written, so that what it throws is still an ordinary error answer.
   */
  subscribe(sink: EventStreamSink<E>): () => void;
  /** Asked at each heartbeat: a stream whose caller lost access (signed out, removed) ends. */
  stillAllowed?: () => Promise<boolean>;
  heartbeatMs?: number;
}

/**
 * Answers with a Server-Sent Events stream (`text/event-stream`) that lasts until the client goes,
 * the sink is ended, or a heartbeat finds the caller no longer allowed. `Connection: close` makes
 * the socket go with the stream, so that a closing HTTP server is not held by it.
 */
export function serveEventStream<E>(res: ServerResponse, options: EventStreamOptions<E>): void {
  let ended = false;
  const sink: EventStreamSink<E> = {
    send(event) {
      if (ended) return;
      res.write(`event: ${options.nameOf(event)}\ndata: ${JSON.stringify(event)}\n\n`);
      if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
    },
    end() {
      if (ended) return;
      ended = true;
      res.end();
    },
  };
  const unsubscribe = options.subscribe(sink);

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'close',
    // Tells nginx and similar proxies not to buffer the stream.
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();

  const heartbeat = setInterval(async () => {
    const allowed = (await options.stillAllowed?.().catch(() => false)) ?? true;
    if (!allowed) sink.end();
    else if (!ended) res.write(': heartbeat\n\n');
  }, options.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();

  res.once('close', () => {
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
  });
}
