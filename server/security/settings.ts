import { resolveSingleSignOn, type SingleSignOnSettings } from '../auth/sso/settings.js';
import type { DeploymentMode } from '../context.js';
import { fitAllowances } from './open-files.js';

/** Who may create an account: anyone, or the first account and then only people an owner invited. */
export type RegistrationPolicy = 'open' | 'first-only';

/** A limit of `requests` per sliding window of `windowMs`. */
export interface RateLimit {
  requests: number;
  windowMs: number;
}

/** A token bucket: `perSecond` sustained, up to `burst` at once. */
export interface MessageRate {
  perSecond: number;
  burst: number;
}

/** HTTP server limits for a server facing a network (Node's `http.Server` settings). */
export interface HttpLimits {
  /** Time to receive a request's headers (slow-headers clients). */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included (slow uploads). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /**
   * Plain HTTP connections open at once; more are refused. WebSockets leave this count once upgraded: they have their
   * own limits (WebSocketLimits), so that sockets never take the API's place.
   */
  maxConnections: number;
}

/** Upgraded WebSockets, realtime (`/v1/realtime`) and signaling (`/v1/rtc`) together. */
export interface WebSocketLimits {
  /** Open on this server at once; past it a new socket is closed with 1013 (Try Again Later). */
  max: number;
  /**
   * Open at once in one environment of one project (at most `max`), so that one cannot take all of them; past it
   * that environment's new sockets are closed with 1013.
   */
  perEnvironment: number;
}

/** The security policies of a server (docs/security.md), resolved from the deployment mode and the settings given. */
export interface SecuritySettings {
  /**
   * Browser origins (`https://app.example.com`) allowed to call the API cross-origin; `*` allows any. In local mode
   * the runtime routes (chat, attachments, telemetry) allow every origin anyway; other routes only these.
   */
  allowedOrigins: readonly string[];
  registration: RegistrationPolicy;
  /** Requests per API key, or null for none (the default in local mode). */
  keyRateLimit: RateLimit | null;
  /**
   * Messages a client may send on one realtime or signaling socket, or null for no limit (local mode: the signaling
   * relay benchmark alone sends thousands a second). Past it the socket closes with 4429.
   */
  socketMessageRate: { realtime: MessageRate; signaling: MessageRate } | null;
  /** Express's `trust proxy`: whether the client address and protocol come from X-Forwarded-* headers. */
  trustProxy: boolean | number | string;
  /** Whether production environments may be recorded (`serve --allow-production-recording`); off by default. */
  allowProductionRecording: boolean;
  http: HttpLimits;
  webSockets: WebSocketLimits;
  /** An OpenID Connect provider to sign in with (dashboard and CLI), or null for none (the default). */
  singleSignOn: SingleSignOnSettings | null;
  /** Whether accounts sign in and register with a password; false only beside `singleSignOn`. Default true. */
  passwordSignIn: boolean;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 10_000,
};

/**
 * WebSockets open at once on a server, by default: the online end users one node is built for, as many as the HTTP
 * connections allowed beside them. Both shrink to fit a lower open-file limit (server/security/open-files.ts).
 */
export const DEFAULT_MAX_WEBSOCKETS = 10_000;

/**
 * Production's socket message limits: a chat client sends typing, read and ping messages, a few a second; a signaling
 * client sends offers, answers, ICE candidates (bursts of dozens) and small data messages.
 */
export const DEFAULT_SOCKET_MESSAGE_RATE = {
  realtime: { perSecond: 20, burst: 60 },
  signaling: { perSecond: 100, burst: 300 },
};

/** Production's default per-key limit: 100 requests a second, as Stripe allows in live mode. */
export const DEFAULT_KEY_RATE_LIMIT: RateLimit = { requests: 6000, windowMs: 60_000 };

export type SecurityOptions = Partial<Omit<SecuritySettings, 'http' | 'webSockets'>> & {
  http?: Partial<HttpLimits>;
  webSockets?: Partial<WebSocketLimits>;
};

/** A count of connections given in the options: a whole number from 1. */
function checkCount(value: number | undefined, name: string): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= 1))
    throw new RangeError(`security.${name} must be a whole number from 1, not ${value}`);
}

/**
 * Fills what was not given with the defaults of the deployment mode. The connection allowances not given fit, with
 * those given, under the process's limit on open files when it is known (`openFiles`). Each environment may take
 * every WebSocket of the server in local mode (one developer), half of them in production, where projects share it.
 */
export function resolveSecurity(
  mode: DeploymentMode,
  options: SecurityOptions = {},
  openFiles: number | null = null,
): SecuritySettings {
  const production = mode === 'production';
  checkCount(options.http?.maxConnections, 'http.maxConnections');
  checkCount(options.webSockets?.max, 'webSockets.max');
  checkCount(options.webSockets?.perEnvironment, 'webSockets.perEnvironment');
  const allowances = fitAllowances(
    openFiles,
    { http: DEFAULT_HTTP_LIMITS.maxConnections, webSockets: DEFAULT_MAX_WEBSOCKETS },
    { http: options.http?.maxConnections, webSockets: options.webSockets?.max },
  );
  if (options.passwordSignIn === false && !options.singleSignOn)
    throw new RangeError('password sign-in can be turned off only with single sign-on: no one could sign in');
  const perEnvironment =
    options.webSockets?.perEnvironment ?? (production ? Math.ceil(allowances.webSockets / 2) : allowances.webSockets);
  return {
    allowedOrigins: options.allowedOrigins ?? [],
    registration: options.registration ?? (production ? 'first-only' : 'open'),
    keyRateLimit:
      options.keyRateLimit !== undefined ? options.keyRateLimit : production ? DEFAULT_KEY_RATE_LIMIT : null,
    socketMessageRate:
      options.socketMessageRate !== undefined
        ? options.socketMessageRate
        : production
          ? DEFAULT_SOCKET_MESSAGE_RATE
          : null,
    trustProxy: options.trustProxy ?? false,
    allowProductionRecording: options.allowProductionRecording ?? false,
    http: { ...DEFAULT_HTTP_LIMITS, ...options.http, maxConnections: allowances.http },
    webSockets: { max: allowances.webSockets, perEnvironment: Math.min(perEnvironment, allowances.webSockets) },
    singleSignOn: options.singleSignOn ? resolveSingleSignOn(mode, options.singleSignOn) : null,
    passwordSignIn: options.passwordSignIn ?? true,
  };
}

/** `https://app.example.com[:port]` with nothing after the host, or `*`; throws a readable error otherwise. */
export function parseOrigin(text: string): string {
  const value = text.trim();
  if (value === '*') return value;
  const invalid = () =>
    new Error(`"${value}" is not an origin such as https://app.example.com (scheme, host and port only)`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid();
  }
  const hostAndPort = value.slice(value.indexOf('//') + 2).replace(/\/$/, '');
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !hostAndPort.includes('/');
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !bare) throw invalid();
  return url.origin;
}
