import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { PrometheusMetrics } from './prometheus.js';

const { createServer } = process.getBuiltinModule('node:http');

export interface MetricsListenerOptions {
  port: number;
  host: string;
}

/**
 * The metrics' own HTTP listener (`--metrics-port`, bound to `--metrics-host`, 127.0.0.1 by default): `GET /metrics`
 * answers the exposition, anything else 404. Apart from the API's port, so that what the metrics tell (routes, load,
 * the store's state) reaches only who can reach this address, with no credential to hand to the scraper, and a busy
 * API's connection limits never refuse a scrape.
 */
export async function listenForScrapes(metrics: PrometheusMetrics, options: MetricsListenerOptions, logger: Logger) {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at /metrics.\n');
      return;
    }
    metrics.exposition().then(
      ({ contentType, text }) => {
        res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        logger.error({ err }, 'metrics: the exposition failed');
        res
          .writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
          .end('The metrics could not be collected.\n');
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':')
    ? `[${options.host}]`
    : options.host === '0.0.0.0'
      ? '127.0.0.1'
      : options.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close(): Promise<void> {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}
