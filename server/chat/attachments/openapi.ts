import * as z from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errorSchema } from '../../shared/schemas.js';
import { attachmentSchema } from './schemas.js';

const signedQuery = z.object({
  prj: z.string().meta({ description: 'The project, as signed.' }),
  env: z.string().meta({ description: 'The environment, as signed.' }),
  expires: z.string().meta({ description: 'Expiry, unix seconds, as signed.' }),
  sig: z.string().meta({ description: 'Hex HMAC-SHA256 over the purpose, project, environment, id and expiry.' }),
});
const requestParams = { path: z.object({ attachmentId: z.string() }), query: signedQuery };
const error = (description: string) => ({ description, content: { 'application/json': { schema: errorSchema } } });
const signatureErrors = {
  403: error(
    'The signature is missing or does not match (`SERVICE_SIGNATURE_INVALID`), or the URL has expired ' +
      '(`SERVICE_URL_EXPIRED`).',
  ),
  404: error(
    'The attachment is gone: never completed in time, or deleted with its message (`SERVICE_ATTACHMENT_NOT_FOUND`).',
  ),
};

/**
 * The two raw-bytes operations behind upload and download URLs. They are not in the JSON route
 * table (their bodies are files), so the document describes them here. Clients never build these
 * URLs: they use `uploadUrl` and the `url` of download-url as given.
 */
export const attachmentContentPaths = (): ZodOpenApiPathsObject => ({
  '/v1/chat/attachments/{attachmentId}/content': {
    put: {
      operationId: 'uploadAttachmentContent',
      summary: 'Upload attachment bytes (upload URL)',
      description:
        'The `uploadUrl` of a new attachment: the signed query is the only credential (15 minutes). Send the raw ' +
        'bytes with the declared `Content-Type` and exactly the declared size. Until the attachment is completed ' +
        'the upload may be repeated.',
      tags: ['Chat'],
      security: [],
      requestParams,
      requestBody: { required: true, content: { '*/*': { schema: z.string().meta({ format: 'binary' }) } } },
      responses: {
        200: { description: 'Stored; status UPLOADED.', content: { 'application/json': { schema: attachmentSchema } } },
        400: error('The body is not the declared size (`SERVICE_SIZE_MISMATCH`); nothing was stored.'),
        ...signatureErrors,
        409: error('The attachment is completed; its bytes cannot change (`SERVICE_ATTACHMENT_COMPLETED`).'),
        415: error('Content-Type differs from the declared one (`SERVICE_CONTENT_TYPE_MISMATCH`).'),
      },
    },
    get: {
      operationId: 'downloadAttachmentContent',
      summary: 'Download attachment bytes (download URL)',
      description:
        'The `url` from download-url: the signed query is the only credential (1 hour). Answers the bytes with the ' +
        "declared Content-Type, `Content-Disposition: attachment; filename*=UTF-8''…`, " +
        '`X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy.',
      tags: ['Chat'],
      security: [],
      requestParams,
      responses: {
        200: { description: 'The bytes.', content: { '*/*': { schema: z.string().meta({ format: 'binary' }) } } },
        ...signatureErrors,
      },
    },
  },
});
