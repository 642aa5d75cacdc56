import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifying Switchboard webhooks on the receiving side. Self-contained (node:crypto only) so that a
 * receiver can copy this file as it is.
 */

export interface VerifyWebhookOptions {
  /** How far the signature's timestamp may be from now, either way. Default 300 seconds. */
  toleranceSeconds?: number;
  /** The current time in milliseconds since the epoch. Default `Date.now()`. */
  now?: number;
}

const SIGNATURE_HEX = /^[0-9a-f]{64}$/;

/**
 * True when `header` (the `Service-Signature` request header, `t=<unix seconds>,v1=<hex>`) is a valid
 * signature of `rawBody` by `secret` made within the tolerance of now. Pass the body exactly as
 * received (a Buffer or string), never a re-serialised object: the bytes are what was signed.
 * A header may carry several `v1` values (e.g. while a secret is being rotated): one match suffices.
 * Comparisons are constant-time, with lengths checked first.
 */
export function verifyWebhook(
  secret: string,
  header: string | null | undefined,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): boolean {
  if (!secret || typeof header !== 'string') return false;
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') timestamp = value;
    else if (name === 'v1' && SIGNATURE_HEX.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) return false;

  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) return false;

  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  return signatures.some((actual) => actual.length === expected.length && timingSafeEqual(actual, expected));
}
