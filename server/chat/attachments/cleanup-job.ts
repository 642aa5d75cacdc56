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
  runDue(): number;
  stop(): void;
}

/** Abandoned uploads are deleted by a timer; what counts as abandoned is decided by the injected clock. */
export function createAttachmentCleanupJob(
  { events, logger }: Infrastructure,
  service: AttachmentService,
): AttachmentCleanupJob {
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  const runDue = () => service.sweep();
  const safeRun = () => {
    try {
      const removed = runDue();
      if (removed > 0) logger.info({ removed }, 'deleted attachments never completed');
    } catch (err) {
      logger.error({ err }, 'attachment cleanup failed');
    }
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
      safeRun();
      timer = setInterval(safeRun, CLEANUP_INTERVAL_MS);
      timer.unref();
    },
    runDue,
    stop() {
      clearInterval(timer);
      timer = undefined;
      unsubscribe?.();
      unsubscribe = undefined;
    },
  };
}
