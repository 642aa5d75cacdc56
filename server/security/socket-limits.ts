import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { EnvironmentScope } from '../../db/scope.js';
import type { Clock } from '../clock.js';
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
export function createSocketLimits({ clock, logger }: { clock: Clock; logger: Logger }, limits: WebSocketLimits) {
  let open = 0;
  /** `projectId \0 environment` → sockets open in that environment. */
  const inEnvironment = new Map<string, number>();
  const warnedAt = new Map<string, number>();

  function refuse(socket: WebSocket, reason: string, limit: string, details: Record<string, unknown>): false {
    socket.close(CLOSE_TRY_AGAIN_LATER, reason);
    const now = clock.now();
    const last = warnedAt.get(limit);
    if (last === undefined || now - last >= WARN_EVERY_MS) {
      warnedAt.set(limit, now);
      logger.warn(details, `WebSocket limit reached: new sockets are closed with 1013 (${reason})`);
    }
    return false;
  }

  // Listeners shared by every socket, which find it as `this` (one closure per socket was ≈200 B of its heap).
  function leaveServer(): void {
    open -= 1;
  }
  /** The environment each admitted socket counts in. */
  const environmentOf = new WeakMap<WebSocket, string>();
  function leaveEnvironment(this: WebSocket): void {
    const key = environmentOf.get(this);
    if (key === undefined) return;
    const left = (inEnvironment.get(key) ?? 1) - 1;
    if (left === 0) inEnvironment.delete(key);
    else inEnvironment.set(key, left);
  }

  return {
    /** At the handshake: counts the socket on the server, or closes it with 1013 and answers false. */
    admitToServer(socket: WebSocket): boolean {
      if (open >= limits.max)
        return refuse(socket, `server at its limit of ${limits.max} WebSockets, retry later`, 'server', {
          limit: limits.max,
        });
      open += 1;
      socket.once('close', leaveServer);
      return true;
    },

    /**
     * Once the socket's token names its environment, before it joins anything: counts it there, or closes it with
     * 1013 and answers false. Called while the socket is open.
     */
    admitToEnvironment(socket: WebSocket, scope: EnvironmentScope): boolean {
      const key = `${scope.projectId}\u0000${scope.environment}`;
      const count = inEnvironment.get(key) ?? 0;
      if (count >= limits.perEnvironment)
        return refuse(
          socket,
          `${scope.environment} environment at its limit of ${limits.perEnvironment} WebSockets, retry later`,
          key,
          { limit: limits.perEnvironment, ...scope },
        );
      inEnvironment.set(key, count + 1);
      environmentOf.set(socket, key);
      socket.once('close', leaveEnvironment);
      return true;
    },
  };
}

export type SocketLimits = ReturnType<typeof createSocketLimits>;
