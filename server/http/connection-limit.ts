import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Refuses plain HTTP connections past `max` open at once, closing them as they arrive. A connection counts from its
 * accept until it closes or is upgraded to a WebSocket: Node's own `server.maxConnections` keeps counting upgraded
 * sockets, so that a server full of realtime clients refused every API call. WebSockets have their own limits
 * (server/security/socket-limits.ts).
 */
export function limitHttpConnections(server: Server, max: number): void {
  const counted = new WeakSet<Duplex>();
  let open = 0;
  const release = (socket: Duplex) => {
    if (counted.delete(socket)) open -= 1;
  };
  // One listener for every socket, which finds it as `this`; added with `on` (a socket closes once, and `once` wraps
  // each listener), and taken off an upgraded socket, which would keep it for its whole life.
  function onClose(this: Duplex): void {
    release(this);
  }
  server.on('connection', (socket: Duplex) => {
    if (open >= max) {
      socket.destroy();
      return;
    }
    open += 1;
    counted.add(socket);
    socket.on('close', onClose);
  });
  server.on('upgrade', (_req, socket: Duplex) => {
    release(socket);
    socket.off('close', onClose);
  });
}
