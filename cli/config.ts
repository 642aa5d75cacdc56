import { readFileSync } from 'node:fs';
import { describePostgresUrl, isPostgresUrl } from '../db/postgres-url.js';
import { describeRedisUrl, isRedisUrl } from '../server/cluster/redis-url.js';
import type { DeploymentMode } from '../server/context.js';
import { type AccessLogSetting, parseAccessLog } from '../server/http/access-log.js';
import { MAX_MEDIA_PROCESSES } from '../server/media/media-ports.js';
import type { RtcMediaMode } from '../server/media/media-signaling.js';
import type { IceServer } from '../server/rtc/ice-servers.js';
import { MAKE_A_SECRET_KEY } from '../server/secret-key.js';
import { parseOrigin, type RegistrationPolicy, type SecurityOptions } from '../server/security/settings.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../server/start-server.js';
import { type OtelEnvironment, otelVariables } from '../server/tracing/otel-environment.js';
import { UsageError } from './errors.js';
import { type RtcNetworkFlags, resolveRtcNetwork } from './rtc-network-settings.js';
import { defaultDataDir, resolveDataDir } from './user-folders.js';

export { defaultDataDir, UsageError };

export interface ServeSettings {
  port: number;
  host: string;
  dataDir: string;
  /** A PostgreSQL database to keep the data in, instead of SQLite in the data folder. */
  databaseUrl?: string;
  /** The secret the keys of a PostgreSQL-backed server derive from. */
  secretKey?: string;
  /** During a rotation of the secret key, the key `secretKey` replaces. */
  previousSecretKey?: string;
  /** Redis, the bus between several servers on one PostgreSQL database. */
  redisUrl?: string;
  mode: DeploymentMode;
  /** Only what was given; the server fills the rest with the mode's defaults. */
  security: SecurityOptions;
  /** An archive to restore into the data folder before starting. */
  importFile?: string;
  /** The import may replace a data folder that holds data. */
  replace?: boolean;
  /** Where to write an archive of the data folder once the server has stopped. */
  exportOnExit?: string;
  /** A seed file to apply on an empty data folder. */
  seedFile?: string;
  /** The least severe log lines written (pino's levels); `silent` writes none. */
  logLevel: LogLevel;
  /** Which requests get an access log line. */
  accessLog: AccessLogSetting;
  /**
   * Where `/v1/rtc`'s media goes, when given: peer to peer (the default), or through the server (experimental), then
   * on one UDP port (`--rtc-udp-port`, default DEFAULT_RTC_UDP_PORT) per media process (`--rtc-media-processes`,
   * default 1), consecutive.
   */
  rtc?: {
    media: RtcMediaMode;
    udpPort: number;
    processes: number;
    announceAddresses?: string[];
    iceServers?: IceServer[];
  };
  /** Where Prometheus metrics are served, on a listener of their own; absent: not served. */
  metrics?: { port: number; host: string };
  /** The environment's OTEL_* variables, which configure tracing (none: no tracing). */
  otelEnvironment?: OtelEnvironment;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function parseLogLevel(value: string, source: string): LogLevel {
  const level = value.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new UsageError(`${source} must be one of ${LOG_LEVELS.join(', ')}, not "${value}"`);
  return level as LogLevel;
}

function parseAccessLogSetting(value: string, source: string): AccessLogSetting {
  const setting = parseAccessLog(value.toLowerCase());
  if (setting === undefined)
    throw new UsageError(`${source} must be all, errors, off, or a fraction from 0 to 1, not "${value}"`);
  return setting;
}

/** The flags of `switchboard serve`, each also an environment variable. */
export interface ServeFlags extends RtcNetworkFlags {
  port?: string;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  secretKeyFile?: string;
  previousSecretKeyFile?: string;
  redisUrl?: string;
  mode?: string;
  allowedOrigins?: string;
  registration?: string;
  keyRateLimit?: string;
  trustProxy?: string;
  maxConnections?: string;
  maxWebsockets?: string;
  maxWebsocketsPerEnvironment?: string;
  allowProductionRecording?: boolean;
  import?: string;
  replace?: boolean;
  exportOnExit?: string;
  seed?: string;
  logLevel?: string;
  accessLog?: string;
  rtcMedia?: string;
  metricsPort?: string;
  metricsHost?: string;
  oidcIssuer?: string;
  oidcClientId?: string;
  oidcClientSecretFile?: string;
  oidcName?: string;
  oidcAllowedDomains?: string;
  publicUrl?: string;
  /** False with `--no-password-sign-in`; commander sets true otherwise. */
  passwordSignIn?: boolean;
  rtcUdpPort?: string;
  rtcMediaProcesses?: string;
}

/**
 * The media process's one UDP port when `serve` runs with `--rtc-media sfu`: fixed, so that a firewall can open it
 * (startServer's own default is 0, a port the system picks, for tests). Below the ephemeral ports of Windows and
 * macOS (49152 up), inside Linux's (32768–60999): should the system have lent it to another program, `serve` says
 * at start that it is in use.
 */
export const DEFAULT_RTC_UDP_PORT = 40100;

function parseRtcMedia(value: string, source: string): RtcMediaMode {
  const media = value.toLowerCase();
  if (media !== 'mesh' && media !== 'sfu') throw new UsageError(`${source} must be "mesh" or "sfu", not "${value}"`);
  return media;
}

/** Ports past 65535 (`--rtc-udp-port` and the next ones) are refused by startServer, naming them. */
function parseMediaProcesses(value: string, source: string): number {
  const processes = parseCount(value, source);
  if (processes > MAX_MEDIA_PROCESSES)
    throw new UsageError(`${source} must be at most ${MAX_MEDIA_PROCESSES} (one a core is what helps), not ${value}`);
  return processes;
}

function parsePort(value: string, source: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UsageError(`${source} must be a port number (0-65535), not "${value}"`);
  return port;
}

function parseMode(value: string, source: string): DeploymentMode {
  const mode = value.toLowerCase();
  if (mode !== 'local' && mode !== 'production')
    throw new UsageError(`${source} must be "local" or "production", not "${value}"`);
  return mode;
}

function parseOrigins(value: string, source: string): string[] {
  try {
    return value
      .split(',')
      .filter((origin) => origin.trim() !== '')
      .map(parseOrigin);
  } catch (err) {
    throw new UsageError(`${source}: ${(err as Error).message}`);
  }
}

function parseRegistration(value: string, source: string): RegistrationPolicy {
  const policy = value.toLowerCase();
  if (policy !== 'open' && policy !== 'first-only')
    throw new UsageError(`${source} must be "open" or "first-only", not "${value}"`);
  return policy;
}

function parseWholeNumber(value: string, source: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${source} must be a whole number, not "${value}"`);
  return Number(value);
}

/** A number of connections: a whole number from 1. */
function parseCount(value: string, source: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`${source} must be a whole number from 1, not "${value}"`);
  return Number(value);
}

/** `true`/`false`, a number of proxy hops, or addresses and subnets as Express's `trust proxy` takes them. */
function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** The database URL, checked to be PostgreSQL's; named without its password in the error. */
function parseDatabaseUrl(value: string, source: string): string {
  if (!isPostgresUrl(value))
    throw new UsageError(
      `${source} must be a PostgreSQL URL, postgres://user:password@host:port/database, not ${describePostgresUrl(value)}`,
    );
  return value;
}

function parseRedisUrl(value: string, source: string): string {
  if (!isRedisUrl(value))
    throw new UsageError(
      `${source} must be a Redis URL, redis://[:password@]host:port[/db] (rediss:// for TLS), not ${describeRedisUrl(value)}`,
    );
  return value;
}

/** A secret key: the file's contents (trimmed) for the flag, else the variable. */
function readSecretKey(file: string | undefined, flag: string, variable: string | undefined): string | undefined {
  if (file === undefined) return variable || undefined;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new UsageError(`--${flag}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
}

/** The client secret: the file's contents (trimmed) for the flag, else the variable; never a flag's own value. */
function readClientSecret(file: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (file === undefined) return env.SWITCHBOARD_OIDC_CLIENT_SECRET || undefined;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new UsageError(
      `--oidc-client-secret-file: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`,
    );
  }
}

function parseHttpUrl(value: string, source: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // refused below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError(`${source} must be an http:// or https:// URL, not "${value}"`);
  return value;
}

/** `--password-sign-in`'s variable: on or off. */
function parseOnOff(value: string, source: string): boolean {
  const setting = value.toLowerCase();
  if (['on', 'true', '1'].includes(setting)) return true;
  if (['off', 'false', '0'].includes(setting)) return false;
  throw new UsageError(`${source} must be on or off, not "${value}"`);
}

/** The single sign-on provider and whether passwords sign in, from their flags and variables. */
function resolveSingleSignOn(
  flags: ServeFlags,
  env: NodeJS.ProcessEnv,
  setting: (flag: string | undefined, name: string, variable: string) => { value: string; source: string } | undefined,
): Pick<SecurityOptions, 'singleSignOn' | 'passwordSignIn'> {
  const issuer = setting(flags.oidcIssuer, 'oidc-issuer', 'SWITCHBOARD_OIDC_ISSUER');
  const clientId = setting(flags.oidcClientId, 'oidc-client-id', 'SWITCHBOARD_OIDC_CLIENT_ID');
  const name = setting(flags.oidcName, 'oidc-name', 'SWITCHBOARD_OIDC_NAME');
  const domains = setting(flags.oidcAllowedDomains, 'oidc-allowed-domains', 'SWITCHBOARD_OIDC_ALLOWED_DOMAINS');
  const publicUrl = setting(flags.publicUrl, 'public-url', 'SWITCHBOARD_PUBLIC_URL');
  const passwords = setting(
    flags.passwordSignIn === false ? 'off' : undefined,
    'no-password-sign-in',
    'SWITCHBOARD_PASSWORD_SIGN_IN',
  );
  const passwordSignIn = passwords ? parseOnOff(passwords.value, passwords.source) : true;
  const clientSecret = readClientSecret(flags.oidcClientSecretFile, env);
  if (!issuer) {
    const orphan = clientId ?? name ?? domains ?? (clientSecret && { source: 'the client secret' });
    if (orphan) throw new UsageError(`${orphan.source} needs a single sign-on provider: --oidc-issuer <url>`);
    if (!passwordSignIn)
      throw new UsageError(
        'password sign-in can be turned off only with single sign-on (--oidc-issuer): no one could sign in',
      );
    return {};
  }
  if (!clientId)
    throw new UsageError('--oidc-issuer needs the client id the provider gave this server: --oidc-client-id');
  if (!clientSecret)
    throw new UsageError(
      '--oidc-issuer needs the client secret the provider gave this server, in SWITCHBOARD_OIDC_CLIENT_SECRET or a ' +
        'file named by --oidc-client-secret-file (never on the command line, where process lists show it)',
    );
  return {
    singleSignOn: {
      issuer: parseHttpUrl(issuer.value, issuer.source),
      clientId: clientId.value,
      clientSecret,
      ...(name && { name: name.value }),
      ...(domains && {
        allowedDomains: domains.value
          .split(',')
          .map((domain) => domain.trim())
          .filter((domain) => domain !== ''),
      }),
      ...(publicUrl && { publicUrl: parseHttpUrl(publicUrl.value, publicUrl.source) }),
    },
    passwordSignIn,
  };
}

/**
 * The config layer: the only place that reads the environment. A flag wins over its variable,
 * which wins over the default.
 */
export function resolveServeSettings(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): ServeSettings {
  /** The flag, else its variable, with where it came from (for error messages). */
  const setting = (flag: string | undefined, name: string, variable: string) =>
    flag !== undefined
      ? { value: flag, source: `--${name}` }
      : env[variable]
        ? { value: env[variable] as string, source: variable }
        : undefined;
  const port = setting(flags.port, 'port', 'SWITCHBOARD_PORT');
  const mode = setting(flags.mode, 'mode', 'SWITCHBOARD_MODE');
  const origins = setting(flags.allowedOrigins, 'allowed-origins', 'SWITCHBOARD_ALLOWED_ORIGINS');
  const registration = setting(flags.registration, 'registration', 'SWITCHBOARD_REGISTRATION');
  const keyRateLimit = setting(flags.keyRateLimit, 'key-rate-limit', 'SWITCHBOARD_KEY_RATE_LIMIT');
  const trustProxy = setting(flags.trustProxy, 'trust-proxy', 'SWITCHBOARD_TRUST_PROXY');
  const maxConnections = setting(flags.maxConnections, 'max-connections', 'SWITCHBOARD_MAX_CONNECTIONS');
  const maxWebSockets = setting(flags.maxWebsockets, 'max-websockets', 'SWITCHBOARD_MAX_WEBSOCKETS');
  const perEnvironment = setting(
    flags.maxWebsocketsPerEnvironment,
    'max-websockets-per-environment',
    'SWITCHBOARD_MAX_WEBSOCKETS_PER_ENVIRONMENT',
  );
  const security: SecurityOptions = {};
  if (origins) security.allowedOrigins = parseOrigins(origins.value, origins.source);
  if (registration) security.registration = parseRegistration(registration.value, registration.source);
  if (keyRateLimit) {
    const perMinute = parseWholeNumber(keyRateLimit.value, keyRateLimit.source);
    security.keyRateLimit = perMinute === 0 ? null : { requests: perMinute, windowMs: 60_000 };
  }
  if (trustProxy) security.trustProxy = parseTrustProxy(trustProxy.value);
  if (flags.allowProductionRecording || env.SWITCHBOARD_ALLOW_PRODUCTION_RECORDING === 'true')
    security.allowProductionRecording = true;
  if (maxConnections) security.http = { maxConnections: parseCount(maxConnections.value, maxConnections.source) };
  if (maxWebSockets || perEnvironment) {
    security.webSockets = {
      ...(maxWebSockets && { max: parseCount(maxWebSockets.value, maxWebSockets.source) }),
      ...(perEnvironment && { perEnvironment: parseCount(perEnvironment.value, perEnvironment.source) }),
    };
  }
  Object.assign(security, resolveSingleSignOn(flags, env, setting));
  if (flags.replace && flags.import === undefined)
    throw new UsageError(
      '--replace only applies to --import <file>: it lets the import replace a data folder that holds data',
    );
  const seed = setting(flags.seed, 'seed', 'SWITCHBOARD_SEED');
  const logLevel = setting(flags.logLevel, 'log-level', 'SWITCHBOARD_LOG_LEVEL');
  const accessLog = setting(flags.accessLog, 'access-log', 'SWITCHBOARD_ACCESS_LOG');
  const rtcMedia = setting(flags.rtcMedia, 'rtc-media', 'SWITCHBOARD_RTC_MEDIA');
  const otelEnvironment = otelVariables(env);
  const rtcUdpPort = setting(flags.rtcUdpPort, 'rtc-udp-port', 'SWITCHBOARD_RTC_UDP_PORT');
  const rtcMediaProcesses = setting(flags.rtcMediaProcesses, 'rtc-media-processes', 'SWITCHBOARD_RTC_MEDIA_PROCESSES');
  const { announceAddresses, iceServers } = resolveRtcNetwork(flags, env, setting);
  const database = setting(flags.databaseUrl, 'database-url', 'SWITCHBOARD_DATABASE_URL');
  const databaseUrl = database && parseDatabaseUrl(database.value, database.source);
  const secretKey = readSecretKey(flags.secretKeyFile, 'secret-key-file', env.SWITCHBOARD_SECRET_KEY);
  if (databaseUrl && !secretKey)
    throw new UsageError(
      `a server on PostgreSQL needs a secret key in SWITCHBOARD_SECRET_KEY or --secret-key-file: ${MAKE_A_SECRET_KEY}`,
    );
  const metricsPort = setting(flags.metricsPort, 'metrics-port', 'SWITCHBOARD_METRICS_PORT');
  const metricsHost = setting(flags.metricsHost, 'metrics-host', 'SWITCHBOARD_METRICS_HOST');
  if (metricsHost && !metricsPort)
    throw new UsageError(
      `${metricsHost.source} needs --metrics-port (or SWITCHBOARD_METRICS_PORT): metrics are off without it`,
    );
  const previousSecretKey = readSecretKey(
    flags.previousSecretKeyFile,
    'previous-secret-key-file',
    env.SWITCHBOARD_PREVIOUS_SECRET_KEY,
  );
  if (previousSecretKey && !databaseUrl)
    throw new UsageError(
      'a previous secret key is for a server on PostgreSQL; on SQLite, `switchboard secret-key rotate --data-dir` ' +
        "replaces the data folder's key",
    );
  if (previousSecretKey && previousSecretKey === secretKey)
    throw new UsageError('the previous secret key is the secret key itself: give the new key and the one it replaces');
  const redis = setting(flags.redisUrl, 'redis-url', 'SWITCHBOARD_REDIS_URL');
  const redisUrl = redis && parseRedisUrl(redis.value, redis.source);
  return {
    ...(databaseUrl && { databaseUrl }),
    ...(redisUrl && { redisUrl }),
    ...(secretKey && { secretKey }),
    ...(previousSecretKey && { previousSecretKey }),
    ...(flags.import !== undefined && { importFile: flags.import, replace: flags.replace === true }),
    ...(flags.exportOnExit !== undefined && { exportOnExit: flags.exportOnExit }),
    ...(seed && { seedFile: seed.value }),
    ...(metricsPort && {
      metrics: { port: parsePort(metricsPort.value, metricsPort.source), host: metricsHost?.value ?? DEFAULT_HOST },
    }),
    ...(otelEnvironment && { otelEnvironment }),
    port: port ? parsePort(port.value, port.source) : DEFAULT_PORT,
    host: flags.host ?? (env.SWITCHBOARD_HOST || DEFAULT_HOST),
    dataDir: resolveDataDir(flags.dataDir, env),
    mode: mode ? parseMode(mode.value, mode.source) : 'local',
    security,
    logLevel: logLevel ? parseLogLevel(logLevel.value, logLevel.source) : 'info',
    accessLog: accessLog ? parseAccessLogSetting(accessLog.value, accessLog.source) : 'all',
    // The ICE servers are for either mode; the port and the announced addresses for the SFU's media only.
    ...((rtcMedia || iceServers) && {
      rtc: {
        media: rtcMedia ? parseRtcMedia(rtcMedia.value, rtcMedia.source) : 'mesh',
        udpPort: rtcUdpPort ? parsePort(rtcUdpPort.value, rtcUdpPort.source) : DEFAULT_RTC_UDP_PORT,
        processes: rtcMediaProcesses ? parseMediaProcesses(rtcMediaProcesses.value, rtcMediaProcesses.source) : 1,
        ...(announceAddresses && { announceAddresses }),
        ...(iceServers && { iceServers }),
      },
    }),
  };
}
