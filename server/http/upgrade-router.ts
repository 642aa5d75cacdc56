import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

const NOT_FOUND = 'HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';
const UNAVAILABLE = 'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * Sends WebSocket upgrades to the handler of their path; anything else is answered 404 and closed. The handlers
 * come from the server's runtime, which the first upgrade may have to wait for (see startServer).
 */
export function routeUpgrades(server: Server, handlers: () => Promise<{ upgrades: Record<string, UpgradeHandler> }>) {
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    // A client that goes away while the runtime loads must not raise an unhandled error.
    const ignore = () => {};
    socket.on('error', ignore);
    handlers().then(
      ({ upgrades }) => {
        socket.off('error', ignore);
        if (socket.destroyed) return;
        const handler = upgrades[path];
        if (handler) handler(req, socket, head);
        else socket.end(NOT_FOUND);
      },
      () => {
        socket.off('error', ignore);
        if (!socket.destroyed) socket.end(UNAVAILABLE);
      },
    );
  });
}
