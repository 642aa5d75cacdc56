import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Sends WebSocket upgrades to the handler of their path; anything else is answered 404 and closed. */
export function routeUpgrades(server: Server, handlers: Record<string, UpgradeHandler>): void {
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const handler = handlers[path];
    if (handler) {
      handler(req, socket, head);
      return;
    }
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
}
