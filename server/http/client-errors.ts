import { type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { IdGenerator } from '../ids.js';

/** Each refusal of Node's HTTP parser: the status Node's own answer gives it, and what it means to the client. */
function refusal(err: NodeJS.ErrnoException): { status: number; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'The request line and headers are too large (at most 16 KB together).' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'The chunk extensions of the request body are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request did not arrive in time.' };
    default:
      return { status: 400, message: 'The request is not well-formed HTTP.' };
  }
}

/**
 * Answers a request that Node's HTTP parser refused before the app saw it (a URL or headers past its 16 KB, a
 * malformed request line, a request too slow to arrive) as the app answers any error: `{code, message, requestId}`
 * with `SERVICE_BAD_REQUEST` and the status Node gives it, instead of Node's bodiless answer. As Node's own handler
 * does, it answers only a socket that can still take one and has no answer under way, and closes the connection.
 */
export function answerClientErrors(server: Server, ids: IdGenerator): void {
  server.on(
    'clientError',
    (err: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
      if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
        socket.destroy();
        return;
      }
      const { status, message } = refusal(err);
      const requestId = ids.next('req');
      const body = JSON.stringify({ code: 'SERVICE_BAD_REQUEST', message, requestId });
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n\r\n${body}`,
      );
    },
  );
}
