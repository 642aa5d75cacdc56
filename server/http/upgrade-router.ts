import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Takes an upgrade's socket over. A handler that first loads something (the WebSocket library, on the first upgrade)
 * returns a promise that settles once the socket is its own; until then the router keeps the socket's errors quiet.
 */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void | Promise<void>;

const NOT_FOUND = 'HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';
const UNAVAILABLE = 'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * Sends WebSocket upgrades to the handler of their path; anything else is answered 404 and closed. The handlers
 * come from the server's runtime, which the first upgrade may have to wait for (see startServer).
 */
export function routeUpgrades(server: Server, handlers: () => Promise<{ upgrades: Record<string, UpgradeHandler> }>) {
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    // A client that goes away while the runtime (or what its handler needs) loads must not raise an unhandled error.
    const ignore = () => {};
    socket.on('error', ignore);
    handlers()
      .then(async ({ upgrades }) => {
        if (socket.destroyed) return;
        const handler = upgrades[path];
        if (handler) await handler(req, socket, head);
        else socket.end(NOT_FOUND);
      })
      .catch(() => {
        if (!socket.destroyed) socket.end(UNAVAILABLE);
      })
      .finally(() => socket.off('error', ignore));
  });
}
