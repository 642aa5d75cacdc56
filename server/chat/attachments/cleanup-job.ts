import type { Infrastructure } from '../../context.js';
import { CLEANUP_INTERVAL_MS } from './limits.js';
import type { AttachmentService } from './service.js';

export interface AttachmentCleanupJob {
  /**
   * Deletes what interrupted uploads left, sweeps now and then every CLEANUP_INTERVAL_MS, and removes a deleted
   * project's files;
   * `startServer` calls it once listening.
   */
  start(): void;
  /** Deletes the attachments abandoned by the clock's now; returns how many. Tests call it after moving the clock. */
  runDue(): Promise<number>;
  /** Resolves once a sweep under way has finished, so that the database can close after it. */
  stop(): Promise<void>;
}

/** Abandoned uploads are deleted by a timer; what counts as abandoned is decided by the injected clock. */
export function createAttachmentCleanupJob(
  { events, logger }: Infrastructure,
  service: AttachmentService,
): AttachmentCleanupJob {
  let timer: NodeJS.Timeout | undefined;
  let firstSweep: NodeJS.Immediate | undefined;
  let unsubscribe: (() => void) | undefined;
  /** The timer's sweep under way, if any. */
  let running: Promise<void> | undefined;
  const runDue = () => service.sweep();
  const safeRun = () => {
    if (running) return; // the last one has not finished: this turn is skipped
    running = runDue()
      .then(
        (removed) => {
          if (removed > 0) logger.info({ removed }, 'deleted attachments never completed');
        },
        (err: unknown) => logger.error({ err }, 'attachment cleanup failed'),
      )
      .finally(() => {
        running = undefined;
      });
  };
  return {
    start() {
      if (timer) return;
      unsubscribe = events.on('project.deleted', ({ projectId }) => {
        try {
          service.storage.removeProject(projectId);
        } catch (err) {
          logger.error({ err, projectId }, 'could not delete a deleted project’s attachments');
        }
      });
      try {
        const leftovers = service.storage.removeLeftoverUploads();
        if (leftovers > 0) logger.info({ removed: leftovers }, 'deleted the temporary files of interrupted uploads');
      } catch (err) {
        logger.error({ err }, 'could not delete the temporary files of interrupted uploads');
      }
      // After the request that loaded the runtime is answered: the sweep's first query took ≈4 ms of it (profiled).
      firstSweep = setImmediate(safeRun);
      timer = setInterval(safeRun, CLEANUP_INTERVAL_MS);
      timer.unref();
    },
    runDue,
    async stop() {
      clearImmediate(firstSweep);
      clearInterval(timer);
      timer = undefined;
      unsubscribe?.();
      unsubscribe = undefined;
      await running;
    },
  };
}
