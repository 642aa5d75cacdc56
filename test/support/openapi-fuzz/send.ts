/**
 * Sends a rendered case as it is, with node:http rather than fetch: fetch would normalise `..` out of a path and
 * refuse a `%zz`, which a client on the network may well send.
 */
import { Agent, request } from 'node:http';
import type { HttpRequest } from './cases.js';

export interface Answer {
  status: number;
  contentType: string;
  /** The JSON body, or the text when it is not JSON (cut at 2,000 characters). */
  body: any;
}

/** A sender of requests to the server at `baseUrl`, over keep-alive connections. */
export function sender(baseUrl: string) {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const send = (req: HttpRequest): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const outgoing = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.target,
          headers:
            req.body === undefined ? req.headers : { ...req.headers, 'content-length': Buffer.byteLength(req.body) },
          timeout: 15_000,
        },
        (res) => {
          const contentType = res.headers['content-type'] ?? '';
          // A live event stream never ends: its headers are the answer.
          if (contentType.startsWith('text/event-stream')) {
            resolve({ status: res.statusCode ?? 0, contentType, body: '(event stream)' });
            res.destroy();
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text.slice(0, 2000);
            if (contentType.includes('json')) {
              try {
                body = JSON.parse(text);
              } catch {
                // not JSON after all: keep the text
              }
            }
            resolve({ status: res.statusCode ?? 0, contentType, body });
          });
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer in 15 s to ${req.method} ${req.target}`)));
      outgoing.on('error', reject);
      outgoing.end(req.body);
    });
  return { send, close: () => agent.destroy() };
}
