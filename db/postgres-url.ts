import { tlsFailureReason } from './tls-failure-reason.js';

/**
 * Where a PostgreSQL URL points, for messages and logs: `host:port/database as user`, never the password (nor any
 * other part of the URL, whose query may carry one too).
 */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(the user’s database)';
    const user = parsed.username ? ` as ${decodeURIComponent(parsed.username)}` : '';
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}/${database}${user}`;
  } catch {
    return 'an unreadable URL';
  }
}

/** Whether `url` is a PostgreSQL connection URL (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  try {
    return ['postgres:', 'postgresql:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The database could not be used at start: the message is one line, fit to print as it is. */
export class StoreUnreachableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreUnreachableError';
  }
}

/** What went wrong, in words, from pg's error codes; the driver's own message otherwise (it never has the password). */
export function connectFailureReason(err: unknown): string {
  const { code, message, path } = err as { code?: string; message?: string; path?: string };
  const tls = tlsFailureReason(err, 'name the CA file with sslrootcert=/path/to/ca.pem in the URL');
  if (tls) return tls;
  switch (code) {
    case 'ENOENT':
    case 'EACCES':
      // pg reads the files that sslrootcert, sslcert and sslkey name when it opens a connection.
      return `cannot read ${path} (named by the URL's sslrootcert, sslcert or sslkey): ${message}`;
    case 'ECONNREFUSED':
      return 'connection refused (is PostgreSQL running and listening there?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'no such host';
    case 'ETIMEDOUT':
      return 'no answer in time';
    case '28P01':
    case '28000':
      return 'the server refused the user name or password';
    case '3D000':
      return 'no such database (create it first: createdb, or CREATE DATABASE)';
    case '42501':
      return 'the user may not create the tables (grant it CREATE on the database or schema)';
  }
  return message ?? String(err);
}
