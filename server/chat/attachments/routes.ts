import type { Request } from 'express';
import { defineRoute } from '../../http/route.js';
import { chatCaller } from '../caller.js';
import { MAX_ATTACHMENT_BYTES } from './limits.js';
import { absoluteUrl, presentAttachment } from './presenter.js';
import { attachmentSchema, createAttachmentBody, createdAttachmentSchema, downloadUrlSchema } from './schemas.js';

const tag = 'Chat';
const attachmentNotFound = {
  SERVICE_ATTACHMENT_NOT_FOUND: 'No such attachment that the caller can see, or one never completed in time.',
};

/** Signed URLs name the host the request came to (its Host header). */
export const requestOrigin = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

export const attachmentRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/chat/conversations/{room}/attachments',
    operationId: 'createAttachment',
    summary: 'Create an attachment',
    description:
      `Declares a file of at most ${MAX_ATTACHMENT_BYTES} bytes (25 MiB) and answers a signed \`uploadUrl\` on this ` +
      'server, valid for 15 minutes. `PUT` the raw bytes there with no other credential, with the declared ' +
      '`Content-Type` and exactly `size` bytes (see `PUT /v1/chat/attachments/{attachmentId}/content`), then ' +
      'complete the attachment. An attachment not completed within 1 hour of its creation is deleted. With a chat ' +
      'token the uploader is the token’s user and `uploaderId` is refused.',
    tag,
    auth: 'key-or-chat',
    body: createAttachmentBody,
    status: 201,
    response: createdAttachmentSchema,
    errors: { SERVICE_CONVERSATION_NOT_FOUND: 'No such conversation that the caller can see.' },
    handler: async ({ app, auth, params, body, req }) => {
      const caller = chatCaller(auth, body.uploaderId, 'uploaderId');
      const access = await app.services.conversations.access(caller, params.room);
      const { attachment, upload } = await app.services.attachments.create(access, caller.userId ?? null, body);
      const { url, expiresAt } = absoluteUrl(requestOrigin(req), upload);
      return { ...presentAttachment(attachment), uploadUrl: url, uploadExpiresAt: expiresAt };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/chat/attachments/{attachmentId}/complete',
    operationId: 'completeAttachment',
    summary: 'Complete an attachment',
    description:
      'Confirms an uploaded attachment; it can then be downloaded and sent with a message. Only the uploader ' +
      '(or a server with an API key) completes. Completing twice is harmless.',
    tag,
    auth: 'key-or-chat',
    response: attachmentSchema,
    errors: {
      ...attachmentNotFound,
      SERVICE_PERMISSION_DENIED: 'A chat-token user who is not the uploader.',
      SERVICE_ATTACHMENT_NOT_UPLOADED: 'The bytes have not been uploaded yet.',
    },
    handler: async ({ app, auth, params }) =>
      presentAttachment(await app.services.attachments.complete(chatCaller(auth, undefined, ''), params.attachmentId)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/chat/attachments/{attachmentId}/download-url',
    operationId: 'getAttachmentDownloadUrl',
    summary: 'Get a download URL',
    description:
      'A signed URL, valid for 1 hour, that answers the bytes to a plain `GET` with no other credential: with the ' +
      'declared Content-Type, `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`. Any member ' +
      'of the conversation (or a server) may ask, once the attachment is completed.',
    tag,
    auth: 'key-or-chat',
    response: downloadUrlSchema,
    errors: { ...attachmentNotFound, SERVICE_ATTACHMENT_NOT_COMPLETED: 'Not completed yet.' },
    handler: async ({ app, auth, params, req }) => {
      const signed = await app.services.attachments.downloadUrl(chatCaller(auth, undefined, ''), params.attachmentId);
      return absoluteUrl(requestOrigin(req), signed);
    },
  }),
];
