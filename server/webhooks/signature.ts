import { createHmac } from 'node:crypto';
import { randomString } from '../ids.js';

/** `whsec_` and 40 base62 characters (~238 bits). The whole text, prefix included, is the HMAC key. */
export const generateSigningSecret = () => `whsec_${randomString(40)}`;

/**
 * `Service-Signature` (spec 6.2): `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. The
 * receiver's side is `verifyWebhook` in sdk/webhooks.ts.
 */
export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.`).update(body).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}
