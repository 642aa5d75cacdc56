/**
 * Just enough of STUN (RFC 8489) to route a datagram without parsing it: werift parses and checks each message
 * itself once the mux has handed it to the right peer connection. Every reader is bounds-checked: what arrives on
 * the port is anyone's.
 */

const MAGIC_COOKIE = 0x2112a442;
const HEADER_BYTES = 20;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const USERNAME_ATTRIBUTE = 0x0006;
/** The two class bits of a message type (C1 at 0x0100, C0 at 0x0010). */
const CLASS_BITS = 0x0110;

export type StunClass = 'request' | 'indication' | 'success' | 'error';

const CLASSES: Record<number, StunClass> = {
  0: 'request',
  16: 'indication',
  256: 'success',
  272: 'error',
};

/**
 * The class of a STUN message, or undefined when `data` is not one. STUN's first byte is 0–3 (RFC 7983), which
 * tells it from DTLS (20–63) and RTP/RTCP (128–191); the magic cookie confirms it.
 */
export function stunClass(data: Buffer): StunClass | undefined {
  if (data.length < HEADER_BYTES || data[0] > 3 || data.readUInt32BE(4) !== MAGIC_COOKIE) return undefined;
  return CLASSES[data.readUInt16BE(0) & CLASS_BITS];
}

/** A message's transaction id (12 bytes after the cookie), as a map key. Only for a message stunClass accepted. */
export function transactionKey(data: Buffer): string {
  return data.toString('hex', 8, HEADER_BYTES);
}

export function isBindingSuccess(data: Buffer): boolean {
  return stunClass(data) === 'success' && data.readUInt16BE(0) === BINDING_SUCCESS;
}

/**
 * The recipient's ufrag in a binding request's USERNAME (`recipient:sender`, RFC 8445 §7.2.2), or undefined for
 * anything else, a request without USERNAME, or a malformed one.
 */
export function bindingRequestUfrag(data: Buffer): string | undefined {
  if (stunClass(data) !== 'request' || data.readUInt16BE(0) !== BINDING_REQUEST) return undefined;
  const end = Math.min(data.length, HEADER_BYTES + data.readUInt16BE(2));
  for (let offset = HEADER_BYTES; offset + 4 <= end; ) {
    const type = data.readUInt16BE(offset);
    const length = data.readUInt16BE(offset + 2);
    const valueEnd = offset + 4 + length;
    if (valueEnd > end) return undefined;
    if (type === USERNAME_ATTRIBUTE) {
      const username = data.toString('utf8', offset + 4, valueEnd);
      const colon = username.indexOf(':');
      return colon > 0 ? username.slice(0, colon) : undefined;
    }
    // Attribute values are padded to 4 bytes.
    offset = valueEnd + ((4 - (length % 4)) % 4);
  }
  return undefined;
}
