import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { tlsFailureReason } from '../../db/tls-failure-reason.js';
import { ClusterError } from './cluster-error.js';
import { describeRedisUrl, REDIS_CA_PARAMETER, type RedisTarget, redisTarget } from './redis-url.js';

/** How long opening a connection may take, at start and on each reconnection. */
const CONNECT_TIMEOUT_MS = 5_000;
/** The longest pause between two reconnection attempts while Redis is away; attempts never stop. */
const MAX_RECONNECT_PAUSE_MS = 2_000;

/** What went wrong, in words; the client's own message otherwise (it never has the password). */
function connectFailureReason(err: unknown): string {
  const { code, message } = err as { code?: string; message?: string };
  const tls = tlsFailureReason(
    err,
    `name the CA file with ?${REDIS_CA_PARAMETER}=/path/to/ca.pem in the rediss:// URL`,
  );
  if (tls) return tls;
  // A TLS port spoken to in plain text resets the connection (or closes it: ioredis then says "Connection is closed.").
  if (code === 'ECONNRESET' || message === 'Connection is closed.')
    return 'the server closed the connection (does it want TLS? then the URL starts with rediss://)';
  if (code === 'ECONNREFUSED') return 'connection refused (is Redis running and listening there?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host';
  if (/NOAUTH|WRONGPASS/.test(message ?? '')) return 'the password was refused';
  return message ?? String(err);
}

/**
 * A connection to Redis, open once this resolves: refused at start with one line saying where and why. Afterwards
 * it reconnects by itself, forever, and a command sent while Redis is away fails at once instead of waiting in a
 * queue: the caller knows better what a lost command means (an event relayed late is worse than one not relayed).
 * Its errors are logged once per outage, not once per reconnection attempt.
 */
export async function connectRedis(url: string, name: string, logger: Logger): Promise<Redis> {
  const where = describeRedisUrl(url);
  let target: RedisTarget;
  try {
    target = redisTarget(url);
  } catch (err) {
    throw new ClusterError(`Cannot use Redis at ${where}: ${(err as Error).message}.`, { cause: err });
  }
  const redis = new Redis(target.url, {
    ...(target.tls && { tls: target.tls }),
    lazyConnect: true,
    connectionName: `switchboard-${name}`,
    connectTimeout: CONNECT_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(50 * 2 ** times, MAX_RECONNECT_PAUSE_MS),
  });
  let reported = false;
  /** The error that ended the first connection: ioredis rejects `connect` with only "Connection is closed.". */
  let firstError: Error | undefined;
  redis.on('error', (err: Error) => {
    firstError ??= err;
    if (reported) return;
    reported = true;
    logger.warn({ err: { message: err.message } }, `lost Redis at ${where}; reconnecting`);
  });
  redis.on('ready', () => {
    if (reported) logger.info(`Redis at ${where} is back`);
    reported = false;
  });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    const cause = firstError ?? err;
    throw new ClusterError(`Cannot use Redis at ${where}: ${connectFailureReason(cause)}.`, { cause });
  }
  return redis;
}
