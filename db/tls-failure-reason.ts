/** Node's codes for a server certificate that no trusted CA signed (or that is its own CA). */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/**
 * Why a TLS connection to a store (PostgreSQL, Redis) was refused, in words, or undefined when `err` is not about its
 * certificate. `caHint` says how to name the CA file in the store's URL.
 */
export function tlsFailureReason(err: unknown, caHint: string): string | undefined {
  const { code, message = '' } = err as { code?: string; message?: string };
  // Node.js 22 and later append their own advice after a semicolon ("try running Node.js with --use-system-ca"):
  // the reason is the part before it, and the advice is the store URL's CA file.
  const reason = message.split(';')[0];
  if (code && UNTRUSTED.has(code))
    return `the server's TLS certificate is not signed by a CA trusted here (${reason}; ${caHint})`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the server's TLS certificate is not for the host name in the URL (${reason})`;
  if (code === 'CERT_HAS_EXPIRED') return "the server's TLS certificate has expired";
  if (code === 'CERT_NOT_YET_VALID') return "the server's TLS certificate is not valid yet";
  return undefined;
}
