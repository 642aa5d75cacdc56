/**
 * The chat benchmark's subscribers (bench/subscribers.ts) stand in for 1,000 browsers on 1,000 machines, but run in one
 * process on the core they share with the load generator. `ws` inflates every compressed message on the thread pool, a
 * round trip each: with 1,000 subscribers that kept this process at 100% of its core, behind the server by seconds, and
 * the load generator starved, so that the benchmark measured its own clients.
 *
 * Switchboard compresses each message on its own (it negotiates `server_no_context_takeover`) and never fragments
 * one, so each message can be inflated alone, synchronously: that is what this replaces `ws`'s `decompress` with, for
 * this process only. Anything else (a fragment, a context kept across messages) fails the benchmark.
 */
import { createRequire } from 'node:module';
import { constants, inflateRawSync } from 'node:zlib';

/** RFC 7692 7.2.2: the end of a flushed DEFLATE block, which the sender removed. */
const TRAILER = Buffer.from([0x00, 0x00, 0xff, 0xff]);

interface PerMessageDeflate {
  params: Record<string, unknown>;
  decompress(data: Buffer, fin: boolean, callback: (err: Error | null, result?: Buffer) => void): void;
}

export function inflateSynchronously(): void {
  // The module `ws` itself loads (its package exports only its entry, so found from there).
  const require = createRequire(import.meta.url);
  const wsEntry = require.resolve('ws');
  const { prototype } = require(wsEntry.replace(/index\.js$/, 'lib/permessage-deflate.js')) as {
    prototype: PerMessageDeflate;
  };
  prototype.decompress = function decompress(data, fin, callback) {
    if (!fin || this.params.server_no_context_takeover !== true) {
      throw new Error('the server fragmented a compressed message or kept its context: bench/sync-inflate.ts cannot');
    }
    const inflated = inflateRawSync(Buffer.concat([data, TRAILER]), { finishFlush: constants.Z_SYNC_FLUSH });
    // Later, as `ws`'s own inflate calls back: its receiver stops reading until then.
    queueMicrotask(() => callback(null, inflated));
  };
}
