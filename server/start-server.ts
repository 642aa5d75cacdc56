import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import pino, { type Logger } from 'pino';
import { type Db, openDatabase } from '../db/connection.js';
import { lockDataDir } from '../db/data-dir-lock.js';
import { createApp } from './app.js';
import { appFiles } from './app-files/app-files.js';
import { createRealtimeEndpoint, REALTIME_PATH } from './chat/realtime/endpoint.js';
import { type Clock, systemClock } from './clock.js';
import type { AppContext, DeploymentMode, Infrastructure } from './context.js';
import { removeLeftoverStaging } from './data-archive/snapshot.js';
import { createEventBus, type EventBus } from './events/bus.js';
import { routeUpgrades } from './http/upgrade-router.js';
import { createIdGenerator } from './ids.js';
import { createSignalingEndpoint, SIGNALING_PATH } from './rtc/signaling-endpoint.js';
import { type HttpLimits, resolveSecurity, type SecurityOptions } from './security/settings.js';
import { applySeed, type SeedOutcome } from './seeds/apply.js';
import type { Seed } from './seeds/schema.js';
import { createServices } from './services.js';
import { readVersion } from './version.js';

export interface ServerOptions {
  /** Folder holding the SQLite database and attachments; created if missing. */
  dataDir: string;
  /** 0 picks a free port. Default 4700. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Deployment mode (not a project environment). Default `local`. */
  mode?: DeploymentMode;
  /**
   * Allowed browser origins, registration policy, per-key rate limit, proxy trust and HTTP limits; what is not
   * given takes the deployment mode's default (see server/security/settings.ts).
   */
  security?: SecurityOptions;
  clock?: Clock;
  fetch?: typeof fetch;
  logger?: Logger;
  /** The internal event bus; injected by tests that watch what the server emits, or emit themselves. */
  events?: EventBus;
  /**
   * Records connections, errors and metrics for the observability routes. Default true; `false`
   * exists only so that the benchmark can measure what recording costs. Never turn it off otherwise.
   */
  observability?: boolean;
  /**
   * What to create on an empty data folder (see server/seeds): applied before the server listens, in one
   * transaction; skipped when the folder holds accounts or projects. A seed with secrets (key text, webhook
   * secrets) makes a production-mode server refuse to start (SeedError).
   */
  seed?: Seed;
  /**
   * The dashboard's built files, served at `/`. Default: `dist/renderer` of this package, where `npm run build`
   * puts them; a packaged server passes its own folder. Without a build there, `/` says how to make one.
   */
  dashboardDir?: string;
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:4700` */
  url: string;
  port: number;
  /**
   * Sends every webhook delivery due by the server's clock and resolves when none is in flight.
   * The server does this by itself (on each new event and every second); tests that move a manual
   * clock call it to make the retries that came due happen now.
   */
  runDueWebhooks(): Promise<void>;
  /**
   * Deletes every attachment not completed in time by the server's clock (the server does this by
   * itself every minute) and returns how many; tests that move a manual clock call it.
   */
  runAttachmentCleanup(): number;
  /** What the `seed` option did; undefined without one. */
  seed?: SeedOutcome;
  close(): Promise<void>;
}

/**
 * Slow or idle clients cannot pin the server: headers and whole requests must arrive in time, idle keep-alive
 * connections close, and past `maxConnections` new connections are refused. Sockets upgraded to WebSockets leave
 * these timers behind and are watched by their heartbeats instead. Node looks for overdue requests every
 * `connectionsCheckingInterval` (30 s by default, which would let a slow client hold a connection for 50 s instead of
 * 20); once a second costs a walk over the open connections.
 */
function createHttpServer(app: RequestListener, limits: HttpLimits): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    app,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}

export const DEFAULT_PORT = 4700;
export const DEFAULT_HOST = '127.0.0.1';

/**
 * Starts Switchboard: what `npm start`, `switchboard serve`, the tests and the desktop app all call.
 * It owns nothing global; `close()` stops listening, ends open connections and closes the database.
 * Only one server may use a data folder at a time: a second one fails to start (DataDirInUseError).
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? pino({ level: 'info' });
  const host = options.host ?? DEFAULT_HOST;
  const lock = lockDataDir(options.dataDir);
  removeLeftoverStaging(options.dataDir);
  let db: Db | undefined;
  const shutDownStorage = () => {
    // Counted metrics are written while the database is still open.
    ctx?.services.observability.stop();
    db?.$client.close();
    lock.release();
  };

  let server: Server;
  let signaling: ReturnType<typeof createSignalingEndpoint> | undefined;
  let realtime: ReturnType<typeof createRealtimeEndpoint> | undefined;
  let ctx: AppContext | undefined;
  let seeded: SeedOutcome | undefined;
  try {
    db = openDatabase(options.dataDir);
    const mode = options.mode ?? 'local';
    const infra: Infrastructure = {
      db,
      clock,
      ids: createIdGenerator(clock),
      logger,
      mode,
      security: resolveSecurity(mode, options.security),
      dataDir: options.dataDir,
      fetch: options.fetch ?? globalThis.fetch,
      events: options.events ?? createEventBus(),
      version: readVersion(),
    };
    ctx = { ...infra, services: createServices(infra, { observability: options.observability }) };
    // Before any socket can connect: rows left open by a previous run are closed first.
    ctx.services.observability.start();
    if (options.seed) seeded = await applySeed(ctx, options.seed);
    const app = createApp(ctx, { dashboardDir: options.dashboardDir ?? appFiles.dashboardDir() });
    server = createHttpServer(app, ctx.security.http).listen(options.port ?? DEFAULT_PORT, host);
    signaling = createSignalingEndpoint(ctx);
    realtime = createRealtimeEndpoint(ctx);
    routeUpgrades(server, { [SIGNALING_PATH]: signaling.handleUpgrade, [REALTIME_PATH]: realtime.handleUpgrade });
    await once(server, 'listening');
  } catch (err) {
    signaling?.close();
    realtime?.close();
    shutDownStorage();
    throw err;
  }

  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const { port } = server.address() as AddressInfo;
  const webhookWorker = ctx.services.webhooks.worker;
  webhookWorker.start();
  const attachmentCleanup = ctx.services.attachmentCleanup;
  const liveEvents = ctx.services.liveEvents;
  attachmentCleanup.start();
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    seed: seeded,
    runDueWebhooks: () => webhookWorker.runDue(),
    runAttachmentCleanup: () => attachmentCleanup.runDue(),
    close() {
      // The worker stops first: attempts in flight are abandoned (and sent again after a restart)
      // before the database closes under them. Signaling sockets close with "server shutting down";
      // live event streams end at once, so that they do not hold the HTTP server open.
      attachmentCleanup.stop();
      liveEvents.close();
      closing ??= webhookWorker.stop().then(
        () =>
          new Promise<void>((resolve, reject) => {
            signaling?.close();
            realtime?.close();
            server.close((err) => {
              shutDownStorage();
              if (err) reject(err);
              else resolve();
            });
            server.closeIdleConnections();
            // Requests in flight get a moment to finish; then their sockets are cut.
            setTimeout(() => {
              for (const socket of sockets) socket.destroy();
            }, 2000).unref();
          }),
      );
      return closing;
    },
  };
}
