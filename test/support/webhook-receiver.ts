import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  rawBody: Buffer;
  /** `performance.now()` when the body had arrived. */
  receivedAt: number;
}

/** How the receiver answers a request: a status (and body), or `hang` to never answer. */
export type Reply = { status: number; body?: string; headers?: Record<string, string> } | 'hang';
/** A reply now, or later: a promise holds the request open until it settles (an attempt in flight). */
type Replier = (request: ReceivedRequest, index: number) => Reply | Promise<Reply>;

export interface WebhookReceiver {
  /** e.g. `http://127.0.0.1:41234/hooks` */
  url: string;
  requests: ReceivedRequest[];
  /** Changes how later requests are answered (default 200 `ok`). */
  reply(answer: Reply | Replier): void;
  /** Resolves once `count` requests have arrived in all (fails after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A real HTTP server on loopback that records every request, for webhook deliveries to hit. */
export async function startReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  let replyWith: Replier = () => ({ status: 200, body: 'ok' });
  const waiters = new Set<() => void>();
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: performance.now(),
      };
      const index = requests.push(request) - 1;
      for (const wake of waiters) wake();
      void Promise.resolve(replyWith(request, index)).then((reply) => {
        if (reply === 'hang') {
          hanging.add(res);
          return;
        }
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? '');
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    reply(answer) {
      replyWith = typeof answer === 'function' ? answer : () => answer;
    },
    waitForRequests(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          cleanup();
          resolve(requests.slice(0, count));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`receiver got ${requests.length} of ${count} requests within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      hanging.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
