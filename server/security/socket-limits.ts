import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { type EnvironmentScope, scopeKey } from '../../db/scope.js';
import type { Clock } from '../clock.js';
import type { MetricSink } from '../metrics/sink.js';
import type { WebSocketLimits } from './settings.js';

/**
 * Close code of a socket refused because the server, or its environment, is at its WebSocket limit: RFC 6455's "Try
 * Again Later". The SDK's ChatClient reconnects after it, later than after a dropped connection.
 */
export const CLOSE_TRY_AGAIN_LATER = 1013;

/** While a limit keeps refusing sockets, the log says so at most this often (per limit). */
const WARN_EVERY_MS = 60_000;

/**
 * The WebSocket limits (`--max-websockets`, `--max-websockets-per-environment`): realtime and signaling sockets
 * count together, on the server from the handshake and in an environment from the moment their token names it,
 * until they close. A socket past a limit is closed with 1013 and a reason saying which limit. They count this node's
 * sockets only, also when there are several nodes: they guard its own memory and open files (docs/security.md).
 */
export function createSocketLimits(
  { clock, logger, metrics }: { clock: Clock; logger: Logger; metrics?: MetricSink },
  limits: WebSocketLimits,
) {
  let open = 0;
  /** `projectId \0 environment` → that environment's scope and its sockets open now. */
  const inEnvironment = new Map<string, { key: string; scope: EnvironmentScope; open: number }>();
  const warnedAt = new Map<string, number>();

  function refuse(socket: WebSocket, reason: string, limit: string, details: Record<string, unknown>): false {
    socket.close(CLOSE_TRY_AGAIN_LATER, reason);
    metrics?.webSocketRefused(limit === 'server' ? 'server' : 'environment');
    const now = clock.now();
    const last = warnedAt.get(limit);
    if (last === undefined || now - last >= WARN_EVERY_MS) {
      warnedAt.set(limit, now);
      logger.warn(details, `WebSocket limit reached: new sockets are closed with 1013 (${reason})`);
    }
    return false;
  }

  /** The environment each admitted socket counts in. */
  const environmentOf = new WeakMap<WebSocket, { key: string; open: number }>();

  return {
    /**
     * At the handshake: counts the socket on the server, or closes it with 1013 and answers false. The caller calls
     * `release` when a counted socket closes (from the socket's one close listener: a listener each, with its
     * closure or `once` wrapper, was ≈600 B of an idle socket's heap).
     */
    admitToServer(socket: WebSocket): boolean {
      if (open >= limits.max)
        return refuse(socket, `server at its limit of ${limits.max} WebSockets, retry later`, 'server', {
          limit: limits.max,
        });
      open += 1;
      return true;
    },

    /** A socket `admitToServer` counted has closed: it counts no more, on the server or in its environment. */
    release(socket: WebSocket): void {
      open -= 1;
      const environment = environmentOf.get(socket);
      if (environment === undefined) return;
      environment.open -= 1;
      if (environment.open === 0) inEnvironment.delete(environment.key);
    },

    /**
     * Once the socket's token names its environment, before it joins anything: counts it there and answers the
     * environment's one scope object, which the socket's session keeps (10,000 sockets of one environment share it,
     * rather than each keep a copy of its strings); or closes it with 1013 and answers undefined. Called while the
     * socket is open.
     */
    admitToEnvironment(socket: WebSocket, { projectId, environment }: EnvironmentScope): EnvironmentScope | undefined {
      const key = scopeKey({ projectId, environment });
      const counted = inEnvironment.get(key) ?? { key, scope: { projectId, environment }, open: 0 };
      if (counted.open >= limits.perEnvironment) {
        refuse(
          socket,
          `${environment} environment at its limit of ${limits.perEnvironment} WebSockets, retry later`,
          key,
          { limit: limits.perEnvironment, projectId, environment },
        );
        return undefined;
      }
      counted.open += 1;
      inEnvironment.set(key, counted);
      // Counted out by `release`, when the socket closes.
      environmentOf.set(socket, counted);
      return counted.scope;
    },
  };
}

export type SocketLimits = ReturnType<typeof createSocketLimits>;
