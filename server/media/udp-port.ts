/**
 * Binding the media process's UDP port, and the error that names it when it cannot be bound. The server tries the
 * port itself before it listens (`checkUdpPortFree`), so that a port in use stops `serve` at start with that message
 * rather than leaving the media process failing in the background.
 */
import { createSocket, type Socket } from 'node:dgram';

export function bindUdpSocket(socket: Socket, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      socket.close();
      const reason =
        error.code === 'EADDRINUSE'
          ? 'is already in use (another media process or program holds it: choose another port)'
          : `cannot be bound: ${error.message}`;
      reject(new Error(`UDP port ${port} on ${host} for media ${reason}`, { cause: error }));
    };
    socket.once('error', failed);
    socket.bind(port, host, () => {
      socket.off('error', failed);
      resolve();
    });
  });
}

/** Binds the port and lets it go at once; rejects as `bindUdpSocket` does. */
export async function checkUdpPortFree(port: number, host: string): Promise<void> {
  const socket = createSocket('udp4');
  await bindUdpSocket(socket, port, host);
  await new Promise<void>((resolve) => socket.close(resolve));
}
