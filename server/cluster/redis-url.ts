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
