import type * as Zlib from 'node:zlib';
import type { PerMessageDeflateOptions, WebSocket } from 'ws';
import { tapSent } from './socket-taps.js';

/**
 * WebSocket frames built once and written to many sockets, plain or compressed (permessage-deflate, RFC 7692). `ws`
 * frames every message anew for each socket, and compresses it with that socket's own deflate stream: with 1,000
 * members online, 1,000 compressions of the same bytes. Negotiated without the server's context takeover, every
 * message is compressed on its own, so one compressed payload is valid on every socket that negotiated the extension:
 * a `sharedFrame` is compressed once, at the first such socket, and `sendShared` writes it, or the plain frame to a
 * socket that did not negotiate.
 */
export const SHARED_DEFLATE_NEGOTIATION: PerMessageDeflateOptions = {
  // Each message on its own: what makes one compressed payload good for every socket.
  serverNoContextTakeover: true,
  // Nor does the server keep a client's window between its (small) messages.
  clientNoContextTakeover: true,
  // The shared payloads use zlib's full window: a client that asks for a smaller one gets plain frames.
  serverMaxWindowBits: 15,
  // `ws` compresses no message by itself (it would, per socket, every one from this size on): only shared frames are.
  threshold: Number.POSITIVE_INFINITY,
};

/**
 * Smaller payloads go plain: compressing a lone event (≈300 bytes) saves a third of it for ≈8 µs of CPU, and the
 * receiver pays to inflate it; from a few events on, a frame shrinks to a fifth or less.
 */
const MIN_DEFLATED_BYTES = 1024;

/**
 * A text frame built once for every socket it goes to: its header and payload as one buffer, plain and (at the first
 * socket that negotiated permessage-deflate) compressed. One buffer makes each socket's send one `write`, where `ws`
 * frames every message for each socket anew and writes header and payload as two.
 */
export interface SharedFrame {
  /** The payload. */
  bytes: Buffer;
  plain?: Buffer;
  deflated?: Buffer;
}

/**
 * What `sendShared` uses of `ws`'s internals: its frame writer, whether a send waits in its queue, and the extensions
 * the handshake negotiated (the public `extensions` getter builds a string at each call, for every socket of every flush).
 */
interface WebSocketInternals {
  _sender: { _state: number; sendFrame(list: Buffer[]): void };
  _extensions: Record<string, unknown>;
}
/** `ws`'s Sender state when nothing waits in its queue (to be compressed, or a Blob read): a frame written now keeps its order. */
const SENDER_IDLE = 0;

let zlib: typeof Zlib | undefined;

/** Compressed as RFC 7692 says: a raw DEFLATE stream, flushed to a byte boundary, its final 00 00 FF FF removed. */
function deflatePayload(bytes: Buffer): Buffer {
  // Not imported at the top: this module loads with the server's runtime, and zlib only with the first socket.
  zlib ??= process.getBuiltinModule('node:zlib');
  const flushed = zlib.deflateRawSync(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return flushed.subarray(0, flushed.length - 4);
}

/** A server's text frame (never masked, RFC 6455 5.2): FIN, RSV1 if compressed, the payload's length, the payload. */
function textFrame(payload: Buffer, compressed: boolean): Buffer {
  const first = 0x80 | (compressed ? 0x40 : 0) | 0x01;
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = first;
  if (headerLength === 2) frame[1] = length;
  else if (headerLength === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(0, 2);
    frame.writeUInt32BE(length, 6);
  }
  payload.copy(frame, headerLength);
  return frame;
}

export function sharedFrame(bytes: Buffer): SharedFrame {
  return { bytes };
}

/** Sends the frame as text: compressed where the socket negotiated permessage-deflate and the frame is worth it. */
export function sendShared(socket: WebSocket, frame: SharedFrame): void {
  tapSent(socket, frame.bytes);
  const { _sender: sender, _extensions: extensions } = socket as unknown as WebSocketInternals;
  if (sender._state !== SENDER_IDLE) {
    // Behind a send `ws` holds back: its queue keeps the order.
    socket.send(frame.bytes, { binary: false });
    return;
  }
  if (frame.bytes.length >= MIN_DEFLATED_BYTES && extensions['permessage-deflate'] !== undefined) {
    frame.deflated ??= textFrame(deflatePayload(frame.bytes), true);
    sender.sendFrame([frame.deflated]);
  } else {
    frame.plain ??= textFrame(frame.bytes, false);
    sender.sendFrame([frame.plain]);
  }
}
