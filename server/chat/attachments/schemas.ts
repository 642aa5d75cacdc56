import * as z from 'zod';
import { ATTACHMENT_STATUSES } from '../../../db/schema/attachments.js';
import { timestampSchema } from '../../shared/schemas.js';
import { MAX_ATTACHMENT_BYTES } from './limits.js';

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

export const createAttachmentBody = z.lazy(() =>
  z
    .strictObject({
      filename: z
        .string()
        .trim()
        .min(1, 'must not be empty')
        .max(255, 'must be at most 255 characters')
        .refine((name) => !/[\p{Cc}/\\]/u.test(name), 'must be a plain file name (no slashes or control characters)')
        .meta({
          description: 'Shown to members and used in the download’s Content-Disposition; never a path.',
          example: 'photo.jpg',
        }),
      contentType: z
        .string()
        .trim()
        .toLowerCase()
        .regex(MEDIA_TYPE, 'must be a media type such as image/png (without parameters)')
        .max(255)
        .meta({ description: 'The upload must be sent with this Content-Type.', example: 'image/jpeg' }),
      size: z
        .number()
        .int()
        .min(1, 'must be at least 1 byte')
        .max(MAX_ATTACHMENT_BYTES, `must be at most ${MAX_ATTACHMENT_BYTES} bytes (25 MiB)`)
        .meta({ description: 'Exact size in bytes; the upload must be this long.', example: 48213 }),
      uploaderId: z
        .string()
        .trim()
        .min(1)
        .max(128)
        .optional()
        .meta({ description: 'API key only: the end user uploading. Refused with a chat token.' }),
    })
    .meta({ id: 'CreateAttachmentRequest' }),
);

export const attachmentSchema = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ example: 'att_01JD3K5V8Q3N4M2X6Y7Z8A9B0C' }),
      conversationId: z.string(),
      uploaderId: z.string().nullable(),
      filename: z.string(),
      contentType: z.string(),
      size: z.number().int(),
      status: z.enum(ATTACHMENT_STATUSES).meta({ description: 'PENDING → UPLOADED (bytes received) → COMPLETED.' }),
      sha256: z.string().nullable().meta({ description: 'Hex SHA-256 of the uploaded bytes; null until uploaded.' }),
      messageId: z.string().nullable().meta({ description: 'The message it was sent with, if any.' }),
      createdAt: timestampSchema,
      uploadedAt: timestampSchema.nullable(),
      completedAt: timestampSchema.nullable(),
    })
    .meta({ id: 'Attachment' }),
);

export const createdAttachmentSchema = z.lazy(() =>
  attachmentSchema
    .unwrap()
    .extend({
      uploadUrl: z
        .url()
        .meta({ description: 'PUT the raw bytes here; no other credential. Works until uploadExpiresAt.' }),
      uploadExpiresAt: timestampSchema,
    })
    .meta({ id: 'CreatedAttachment' }),
);

export const downloadUrlSchema = z.lazy(() =>
  z
    .object({
      url: z.url().meta({ description: 'GET returns the bytes; no other credential.' }),
      expiresAt: timestampSchema,
    })
    .meta({ id: 'AttachmentDownloadUrl' }),
);

/** How a message shows an attachment. */
export const attachmentSummarySchema = z.lazy(() =>
  z
    .object({ id: z.string(), filename: z.string(), contentType: z.string(), size: z.number().int() })
    .meta({ id: 'MessageAttachment' }),
);
