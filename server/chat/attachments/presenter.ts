import type * as z from 'zod';
import { toIso, toIsoOrNull } from '../../clock.js';
import type { attachmentSchema, attachmentSummarySchema } from './schemas.js';
import type { AttachmentRow } from './service.js';

export const presentAttachment = (a: AttachmentRow): z.input<typeof attachmentSchema> => ({
  id: a.id,
  conversationId: a.conversationId,
  uploaderId: a.uploaderId,
  filename: a.filename,
  contentType: a.contentType,
  size: a.size,
  status: a.status,
  sha256: a.sha256,
  messageId: a.messageId,
  createdAt: toIso(a.createdAt),
  uploadedAt: toIsoOrNull(a.uploadedAt),
  completedAt: toIsoOrNull(a.completedAt),
});

export const presentAttachmentSummary = (a: AttachmentRow): z.input<typeof attachmentSummarySchema> => ({
  id: a.id,
  filename: a.filename,
  contentType: a.contentType,
  size: a.size,
});

/** Signed URLs point at the host the request came to, so they work from where the client stands. */
export const absoluteUrl = (origin: string, signed: { path: string; expiresAt: number }) => ({
  url: origin + signed.path,
  expiresAt: toIso(signed.expiresAt),
});
