import { readFileSync } from 'node:fs';

/**
 * Where a Redis URL points, for messages and logs: `host:port/db`, never the password (nor the user name, which Redis
 * ACLs may pair with it).
 */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const db = parsed.pathname.replace(/^\//, '');
    return `${parsed.hostname || 'localhost'}:${parsed.port || '6379'}${db ? `/${db}` : ''}`;
  } catch {
    return 'an unreadable URL';
  }
}

/** Whether `url` is a Redis connection URL (`redis://`, or `rediss://` over TLS). */
export function isRedisUrl(url: string): boolean {
  try {
    return ['redis:', 'rediss:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * The query parameter of a `rediss://` URL that names the CA file (PEM) to trust for Redis's certificate, instead of
 * the system's CAs: Redis's own name for the file (its `tls-ca-cert-file` setting).
 */
export const REDIS_CA_PARAMETER = 'tls-ca-cert-file';

/** What to hand ioredis for a URL: the URL without Switchboard's own parameter, and the CA it named. */
export interface RedisTarget {
  url: string;
  tls?: { ca: Buffer };
}

/**
 * The URL and TLS options for ioredis: `rediss://` is TLS (ioredis checks the certificate against the system's CAs,
 * and that it names the URL's host), and its `tls-ca-cert-file` parameter names a CA to trust instead. Throws, in
 * words, for that parameter on a plain `redis://` URL, or for a file it cannot read.
 */
export function redisTarget(url: string): RedisTarget {
  const parsed = new URL(url);
  const caFile = parsed.searchParams.get(REDIS_CA_PARAMETER);
  if (caFile === null) return { url };
  if (parsed.protocol !== 'rediss:')
    throw new Error(`${REDIS_CA_PARAMETER} is for TLS: the URL must start with rediss://, not redis://`);
  parsed.searchParams.delete(REDIS_CA_PARAMETER);
  try {
    return { url: parsed.toString(), tls: { ca: readFileSync(caFile) } };
  } catch (err) {
    throw new Error(`cannot read the CA file ${caFile} (${REDIS_CA_PARAMETER}): ${(err as Error).message}`);
  }
}
