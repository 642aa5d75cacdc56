import { type Request, type Response, Router } from 'express';
import type { AppContext } from '../../context.js';
import { notFound, ServiceError, validationFailed } from '../../errors.js';
import { refuseNulInUrl } from '../../http/text-rules.js';
import { presentAttachment } from './presenter.js';
import type { AttachmentRow } from './service.js';

/**
 * Upload and download URLs are `/v1/chat/attachments/{id}/content` (outside the JSON route table: the body is the
 * file): the router is mounted at this prefix, so that other requests skip it after one prefix test.
 */
export const CONTENT_MOUNT = '/v1/chat/attachments';
const CONTENT_PATH = '/:attachmentId/content';

/** `filename*` per RFC 6266 / 8187, with a plain ASCII `filename` for old clients. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A body that broke off (the client went away) is the client's doing, not a 500. */
function asUploadError(err: unknown, req: Request): unknown {
  if (err instanceof ServiceError || !(req.readableAborted || req.destroyed)) return err;
  return validationFailed('The upload was interrupted before all bytes arrived.');
}

async function sendFile(ctx: AppContext, attachment: AttachmentRow, res: Response): Promise<void> {
  const file = await ctx.services.attachments.storage.read(attachment).catch(() => {
    throw notFound('SERVICE_ATTACHMENT_NOT_FOUND', 'The attachment’s file is gone.');
  });
  res.status(200);
  res.set({
    'Content-Type': attachment.contentType,
    'Content-Length': String(attachment.size),
    'Content-Disposition': contentDisposition(attachment.filename),
    'X-Content-Type-Options': 'nosniff',
    // Even if a browser rendered it, the page could run nothing and reach nothing.
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-store',
  });
  await new Promise<void>((resolve, reject) => {
    file.once('error', (err) => {
      file.destroy();
      reject(err);
    });
    res.once('close', () => {
      file.destroy();
      resolve();
    });
    file.pipe(res);
  });
}

/**
 * `PUT` (upload URL) and `GET` (download URL) of attachment bytes. The signed query is the only
 * credential; errors go through the error middleware like every other route.
 */
export function attachmentContentRouter(ctx: AppContext): Router {
  const router = Router();
  router.put(CONTENT_PATH, async (req: Request<{ attachmentId: string }>, res: Response) => {
    refuseNulInUrl(req);
    const attachment = await ctx.services.attachments
      .receive(
        req.params.attachmentId,
        req.query,
        { contentType: req.headers['content-type'], contentLength: req.headers['content-length'] },
        req,
      )
      .catch((err: unknown) => {
        throw asUploadError(err, req);
      });
    res.status(200).json(presentAttachment(attachment));
  });
  router.get(CONTENT_PATH, async (req: Request<{ attachmentId: string }>, res: Response) => {
    refuseNulInUrl(req);
    await sendFile(ctx, await ctx.services.attachments.downloadable(req.params.attachmentId, req.query), res);
  });
  return router;
}
