import type { Router } from 'express';
import { createApiRouter } from './api-router.js';
import { appFiles } from './app-files/app-files.js';
import { createRealtimeEndpoint, REALTIME_PATH } from './chat/realtime/endpoint.js';
import type { AppContext, Infrastructure } from './context.js';
import type { UpgradeHandler } from './http/upgrade-router.js';
import { createSignalingEndpoint, SIGNALING_PATH } from './rtc/signaling-endpoint.js';
import { createServices } from './services.js';
import type { ServerOptions } from './start-server.js';

/**
 * Everything of a server that needs its domain services: the services themselves, the WebSocket endpoints and the
 * background jobs (webhook deliveries, attachment clean-up). It is most of the server's code, so `startServer`
 * loads this module after listening, when the first request needs it or shortly after start (see start-server.ts).
 */
export interface Runtime {
  ctx: AppContext;
  /** The `/v1` API's routes. */
  api: Router;
  /** The WebSocket endpoints by path. */
  upgrades: Record<string, UpgradeHandler>;
  /** Starts delivering webhooks and cleaning up attachments: after a seed is applied, whose events are not sent. */
  startJobs(): void;
  runDueWebhooks(): Promise<void>;
  runAttachmentCleanup(): Promise<number>;
  runSecretKeyRotation(): Promise<void>;
  /**
   * Stops the jobs, ends live event streams and closes the WebSocket endpoints; webhook attempts in flight are
   * abandoned (and sent again after a restart). The HTTP server and the database are the caller's to close after.
   */
  stop(): Promise<void>;
  /** Writes what observability recorded and counted; the last thing before the database closes. */
  stopRecording(): Promise<void>;
}

export async function createRuntime(
  infra: Infrastructure,
  { observability, rtc }: Pick<ServerOptions, 'observability' | 'rtc'>,
): Promise<Runtime> {
  const ctx: AppContext = {
    ...infra,
    services: createServices(infra, { observability, rtcMedia: rtc?.media, iceServers: rtc?.iceServers }),
  };
  const { services } = ctx;
  // Before any socket can connect: rows left open by a previous run are closed first.
  await services.observability.start();
  await services.recordings.ready;
  ctx.cluster.countConnections(() => ({
    realtime: services.realtime.count(),
    signaling: services.signaling.participantsOnNode(),
  }));
  // The media processes start with the first join of a room that needs one (none for a server whose rooms see no
  // participant), and stop with the runtime. Their module (and the schemas of their protocol) loads only when asked for.
  const media =
    rtc?.media === 'sfu'
      ? (await import('./media/media-signaling.js')).createMediaSignaling({
          entry: appFiles.mediaProcess(),
          udpPort: rtc.udpPort ?? 0,
          processes: rtc.processes ?? 1,
          announcedAddresses: rtc.announceAddresses,
          logger: ctx.logger,
          cluster: ctx.cluster,
          events: ctx.events,
          onTotals: (id, totals) => ctx.events.emit('connection.media', { id, ...totals }),
        })
      : undefined;
  if (media) services.roomMedia.attach(media);
  const signaling = createSignalingEndpoint(ctx, media);
  const realtime = createRealtimeEndpoint(ctx);
  return {
    ctx,
    api: createApiRouter(ctx),
    upgrades: { [SIGNALING_PATH]: signaling.handleUpgrade, [REALTIME_PATH]: realtime.handleUpgrade },
    startJobs() {
      services.webhooks.worker.start();
      services.attachmentCleanup.start();
      services.secretKeyRotation.start();
    },
    runDueWebhooks: () => services.webhooks.worker.runDue(),
    runAttachmentCleanup: () => services.attachmentCleanup.runDue(),
    runSecretKeyRotation: () => services.secretKeyRotation.runDue(),
    async stop() {
      await services.attachmentCleanup.stop();
      await services.secretKeyRotation.stop();
      // Live event streams end at once, so that they do not hold the HTTP server open.
      services.liveEvents.close();
      await services.webhooks.worker.stop();
      // Signaling sockets close with "server shutting down".
      const leaving = signaling.close();
      realtime.close();
      await leaving;
      await media?.close();
    },
    // The environment recordings' waiting entries too (a name from before them: observability's recording).
    stopRecording: async () => {
      await services.recordings.close();
      await services.observability.stop();
    },
  };
}
